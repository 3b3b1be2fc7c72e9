import Testing
import TestTiers
import ThreadOwnership

/// `ThreadOwned`: the value is changed where it is held, and let go with its holder.
@Suite(.tags(.unit)) struct ThreadOwnedTests {
    /// What a holder of state looks like: a class with the state as a `let`.
    final class Holder {
        let numbers = ThreadOwned([Int]())
        let count = ThreadOwned(0)
    }

    /// An object whose release can be seen.
    final class Token {}

    @Test func aValueChangedInPlaceIsWhatTheNextReadSees() {
        let holder = Holder()
        for number in 1...3 {
            holder.numbers.value.append(number)
            holder.count.value += 1
        }
        #expect(holder.numbers.value == [1, 2, 3])
        #expect(holder.count.value == 3)
        holder.numbers.value = []
        #expect(holder.numbers.value.isEmpty && holder.count.value == 3)
    }

    @Test func anInoutArgumentChangesTheHeldValue() {
        let held = ThreadOwned("a")
        func add(_ text: inout String) { text += "b" }
        add(&held.value)
        #expect(held.value == "ab")
    }

    @Test func theValueIsLetGoWithItsHolder() {
        weak var released: Token?
        do {
            let token = Token()
            released = token
            let held = ThreadOwned(token)
            #expect(held.value === token)
        }
        #expect(released == nil)
    }

    @Test func aReplacedValueIsLetGo() {
        weak var first: Token?
        let held = ThreadOwned(Token())
        first = held.value
        #expect(first != nil)
        held.value = Token()
        #expect(first == nil)
    }
}
