/// One JSON object read member by member in whatever order the caller asks for them: each is
/// found by its key wherever it stands. Keys are taken in the text's order, so a caller asking
/// in the order the members were written (as the project's writers write them) finds each one
/// next; a member asked for out of order is found by reading on, remembering the keys passed, or
/// among those remembered. Whatever the order of asking, a repeated key's first value is the
/// one read, so every reader of the same text reads the same values.
public struct JSONObjectReader {
    /// Where the first key not yet read starts (or the end of the object, once `ended`).
    @usableFromInline var cursor: Int
    /// No key has been read yet (`JSONReader.nextKey(_:)`'s comma rule).
    @usableFromInline var first = true
    /// The closing brace has been read; `cursor` is past it.
    @usableFromInline var ended = false
    /// The value found last was a remembered one: the reader goes back to `cursor` after it.
    @usableFromInline var foundPassed = false
    /// Keys read over and the values they stand for, in the text's order: the first four kept,
    /// and where the fifth starts, from which any later ones are read again when asked for. The
    /// reader is a plain value (no reference), copied and dropped for nothing.
    @usableFromInline var passed: (Passed, Passed, Passed, Passed) = (.none, .none, .none, .none)
    @usableFromInline var passedCount = 0
    @usableFromInline var fifthPassed = 0

    /// A key read over, and where its value starts (in 32 bits, as the key's offsets).
    @usableFromInline struct Passed: Sendable {
        @usableFromInline let key: JSONReader.Key
        @usableFromInline let value: Int32

        @usableFromInline static let none = Passed(JSONReader.Key(range: 0..<0, escaped: false), value: 0)

        @usableFromInline init(_ key: JSONReader.Key, value: Int) {
            self.key = key
            self.value = Int32(truncatingIfNeeded: value)
        }

        /// Where the key's text starts, its opening quote included.
        @usableFromInline var keyStart: Int { key.range.lowerBound - 1 }
    }

    /// Enters the object that comes next in `reader`.
    @inlinable @inline(__always) public init(_ reader: inout JSONReader) throws(JSONError) {
        try reader.beginObject()
        cursor = reader.position
    }

    /// Finds the member `name`: true with `reader` at its value (read it, then call
    /// `taken(_:)`); false when the object has none.
    @inlinable @inline(__always) public mutating func find(_ name: StaticString, _ reader: inout JSONReader) throws(JSONError) -> Bool {
        if passedCount > 0, let value = remembered(name, reader) {
            reader.position = value
            foundPassed = true
            return true
        }
        guard !ended else { return false }
        reader.position = cursor
        // Asked for in the order written, the member is most often the next one, written plainly.
        if reader.nextKeyIs(name, &first) { return true }
        while let key = try reader.nextKey(&first) {
            if reader.key(key, is: name) { return true }
            remember(Passed(key, value: reader.position))
            try reader.skipMemberValue()
        }
        ended = true
        cursor = reader.position
        return false
    }

    /// After the value `find` found has been read.
    @inlinable @inline(__always) public mutating func taken(_ reader: inout JSONReader) {
        if foundPassed {
            foundPassed = false
            reader.position = cursor
        } else {
            cursor = reader.position
        }
    }

    /// Checks and passes over the members no one asked for, leaving `reader` after the object.
    @inlinable @inline(__always) public mutating func close(_ reader: inout JSONReader) throws(JSONError) {
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

    @usableFromInline mutating func remember(_ entry: Passed) {
        if passedCount < 4 {
            withUnsafeMutableBytes(of: &passed) { $0.storeBytes(of: entry, toByteOffset: passedCount * MemoryLayout<Passed>.stride, as: Passed.self) }
        } else if passedCount == 4 {
            fifthPassed = entry.keyStart
        }
        passedCount += 1
    }

    /// The value of the first remembered key that is `name`.
    @usableFromInline func remembered(_ name: StaticString, _ reader: JSONReader) -> Int? {
        let inPlace = min(passedCount, 4)
        let found: Int? = withUnsafeBytes(of: passed) { raw in
            // A tuple of one type is laid out as an array of it.
            let entries = raw.assumingMemoryBound(to: Passed.self)
            for index in 0..<inPlace where reader.key(entries[index].key, is: name) { return Int(entries[index].value) }
            return nil
        }
        if let found { return found }
        guard passedCount > 4 else { return nil }
        // Past the fourth: the keys from the fifth to the cursor, read again (a repeated key's
        // first value counts: the keys taken in between are never `name`, asked for once each).
        var again = reader
        again.position = fifthPassed
        var first = true
        while again.position < cursor, let key = try? again.nextKey(&first) {
            if again.key(key, is: name) { return again.position }
            guard (try? again.skipValue()) != nil else { return nil }
        }
        return nil
    }
}
