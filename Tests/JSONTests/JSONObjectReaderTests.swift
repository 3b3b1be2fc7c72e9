import JSON
import Testing
import TestTiers

/// An object's members are found wherever they are, in any order and spacing, and a repeated
/// key's first value is the one read whatever the order of asking: every reader of the same
/// text reads the same values.
@Suite(.tags(.unit)) struct JSONObjectReaderTests {
    /// The string values of `names` in the object `text`, asked for in that order (nil: absent).
    func strings(_ text: String, _ names: [StaticString]) throws(JSONError) -> [String?] {
        try Array(text.utf8).withUnsafeBufferPointer { bytes throws(JSONError) in
            var reader = JSONReader(bytes)
            var object = try JSONObjectReader(&reader)
            var found: [String?] = []
            for name in names {
                if try object.find(name, &reader) {
                    found.append(try reader.readString())
                    object.taken(&reader)
                } else {
                    found.append(nil)
                }
            }
            try object.close(&reader)
            try reader.finish()
            return found
        }
    }

    @Test func membersAreFoundInTheOrderAskedWhateverTheirOrder() throws {
        let text = #"{"a":"1","b":"2","c":"3"}"#
        #expect(try strings(text, ["a", "b", "c"]) == ["1", "2", "3"])
        #expect(try strings(text, ["c", "b", "a"]) == ["3", "2", "1"])
        #expect(try strings(text, ["b", "d", "a", "c"]) == ["2", nil, "1", "3"])
        #expect(try strings(" {\n\t\"c\" :\r \"3\" , \"a\":\"1\"  } ", ["a", "c", "b"]) == ["1", "3", nil])
    }

    @Test func theFirstOfARepeatedKeyIsReadWhateverTheOrderOfAsking() throws {
        let text = #"{"a":"first","b":"x","a":"second"}"#
        #expect(try strings(text, ["a", "b"]) == ["first", "x"])
        #expect(try strings(text, ["b", "a"]) == ["x", "first"])
        let later = #"{"b":"x","a":"first","c":"y","a":"second"}"#
        #expect(try strings(later, ["c", "a"]) == ["y", "first"])
    }

    @Test func anEscapedKeyIsTheKeyItSpells() throws {
        #expect(try strings(#"{"\u0061":"1","b\n":"2"}"#, ["a"]) == ["1"])
    }

    @Test func membersNoOneAskedForAreCheckedAndPassedOver() throws {
        #expect(try strings(#"{"x":{"deep":[1,{"y":null}]},"a":"1","z":[true,false]}"#, ["a"]) == ["1"])
        let error = #expect(throws: JSONError.self) { try strings(#"{"a":"1","x":[1,]}"#, ["a"]) }
        #expect(error?.kind == .syntax)
    }

    @Test func whatIsNotAnObjectIsATypeError() {
        let error = #expect(throws: JSONError.self) { try strings("[1]", ["a"]) }
        #expect(error?.kind == .type)
    }

    @Test func manyMembersOutOfOrderAreAllFound() throws {
        let names: [StaticString] = ["k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9", "k10", "k11"]
        let text = "{" + (0..<12).reversed().map { "\"k\($0)\":\"v\($0)\"" }.joined(separator: ",") + "}"
        #expect(try strings(text, names) == (0..<12).map { "v\($0)" })
    }
}

/// `nextKeyIs` takes a key in one step only where `nextKey` would read that same key: written
/// plainly right at the reader; any other spelling, spacing or key is left for `nextKey`.
@Suite(.tags(.unit)) struct JSONReaderKnownKeyTests {
    /// Whether `nextKeyIs(name)` takes the first key of `text` (after `{`, or after its first
    /// member when `second`), and where the reader is then.
    func takes(_ name: StaticString, in text: String, second: Bool = false) throws -> (taken: Bool, rest: String) {
        try Array(text.utf8).withUnsafeBufferPointer { bytes in
            var reader = JSONReader(bytes)
            try reader.beginObject()
            var first = true
            if second {
                _ = try reader.nextKey(&first)
                try reader.skipValue()
            }
            let before = (reader.position, first)
            let taken = reader.nextKeyIs(name, &first)
            if !taken { #expect(reader.position == before.0 && first == before.1, "nothing is consumed when the key is not taken") }
            return (taken, String(decoding: bytes[reader.position...], as: UTF8.self))
        }
    }

    @Test func aPlainlyWrittenKeyIsTakenWithItsColon() throws {
        #expect(try takes("a", in: #"{"a":1}"#) == (true, "1}"))
        #expect(try takes("correlationId", in: #"{"correlationId":"x"}"#) == (true, #""x"}"#))
        #expect(try takes("b", in: #"{"a":1,"b":2}"#, second: true) == (true, "2}"))
    }

    @Test func anyOtherFormIsLeftForNextKey() throws {
        for text in [#"{ "a":1}"#, #"{"a" :1}"#, #"{"\u0061":1}"#, #"{"ab":1}"#, #"{"b":1}"#, #"{}"#, #"{"a""#, #"{"A":1}"#] {
            #expect(try takes("a", in: text).taken == false, "\(text)")
        }
        #expect(try takes("ab", in: #"{"a":1}"#).taken == false)
        #expect(try takes("b", in: #"{"a":1 ,"b":2}"#, second: true).taken == false)
        #expect(try takes("b", in: #"{"a":1}"#, second: true).taken == false)
    }

    @Test func aFoundMemberIsTheSameWhetherTakenInOneStepOrRead() throws {
        // The same members, written plainly (every key taken in one step) and spaced out (every
        // key read by `nextKey`), in every order of asking.
        let plain = #"{"one":"1","two":"2","three":"3"}"#
        let spaced = "{ \"one\" : \"1\" ,\n\"two\"\t:\"2\",  \"three\":\"3\" }"
        let names: [StaticString] = ["one", "two", "three"]
        for order in [[0, 1, 2], [2, 1, 0], [1, 2, 0], [0, 2, 1]] {
            let asked = order.map { names[$0] }
            let expected = order.map { ["1", "2", "3"][$0] }
            #expect(try JSONObjectReaderTests().strings(plain, asked) == expected)
            #expect(try JSONObjectReaderTests().strings(spaced, asked) == expected)
        }
    }
}
