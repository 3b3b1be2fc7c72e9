/// One JSON object read member by member in whatever order the caller asks for them: each is
/// found by its key wherever it stands. Keys are taken in the text's order, so a caller asking
/// in the order the members were written (as the project's writers write them) finds each one
/// next; a member asked for out of order is found by reading on, remembering the keys passed, or
/// among those remembered. Whatever the order of asking, a repeated key's first value is the
/// one read, so every reader of the same text reads the same values.
public struct JSONObjectReader {
    /// Where the first key not yet read starts (or the end of the object, once `ended`).
    private var cursor: Int
    /// No key has been read yet (`JSONReader.nextKey(_:)`'s comma rule).
    private var first = true
    /// The closing brace has been read; `cursor` is past it.
    private var ended = false
    /// The value found last was a remembered one: the reader goes back to `cursor` after it.
    private var foundPassed = false
    /// Keys read over and the values they stand for, in the text's order: the first few in
    /// place, so that an object with an absent or reordered member costs no allocation.
    private var passed = InlineArray<8, Passed>(repeating: Passed(key: JSONReader.Key(range: 0..<0, escaped: false), value: 0))
    private var passedCount = 0
    private var morePassed: [Passed] = []

    private struct Passed {
        let key: JSONReader.Key
        let value: Int
    }

    /// Enters the object that comes next in `reader`.
    @inline(__always) public init(_ reader: inout JSONReader) throws(JSONError) {
        try reader.beginObject()
        cursor = reader.position
    }

    /// Finds the member `name`: true with `reader` at its value (read it, then call
    /// `taken(_:)`); false when the object has none.
    @inline(__always) public mutating func find(_ name: StaticString, _ reader: inout JSONReader) throws(JSONError) -> Bool {
        if passedCount > 0, let value = remembered(name, reader) {
            reader.position = value
            foundPassed = true
            return true
        }
        guard !ended else { return false }
        reader.position = cursor
        while let key = try reader.nextKey(&first) {
            if reader.key(key, is: name) { return true }
            remember(Passed(key: key, value: reader.position))
            try reader.skipValue()
        }
        ended = true
        cursor = reader.position
        return false
    }

    /// After the value `find` found has been read.
    @inline(__always) public mutating func taken(_ reader: inout JSONReader) {
        if foundPassed {
            foundPassed = false
            reader.position = cursor
        } else {
            cursor = reader.position
        }
    }

    /// Checks and passes over the members no one asked for, leaving `reader` after the object.
    @inline(__always) public mutating func close(_ reader: inout JSONReader) throws(JSONError) {
        reader.position = cursor
        guard !ended else { return }
        while try reader.nextKey(&first) != nil { try reader.skipValue() }
        ended = true
        cursor = reader.position
    }

    /// Leaves `reader` after the members read so far, without reading on: for a reader that
    /// needs a few members only and trusts the rest to whoever reads the whole text.
    public mutating func stop(_ reader: inout JSONReader) {
        reader.position = cursor
    }

    private mutating func remember(_ entry: Passed) {
        if passedCount < passed.count { passed[passedCount] = entry } else { morePassed.append(entry) }
        passedCount += 1
    }

    /// The value of the first remembered key that is `name`.
    private func remembered(_ name: StaticString, _ reader: JSONReader) -> Int? {
        for index in 0..<min(passedCount, passed.count) where reader.key(passed[index].key, is: name) { return passed[index].value }
        for entry in morePassed where reader.key(entry.key, is: name) { return entry.value }
        return nil
    }
}
