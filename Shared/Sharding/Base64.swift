/// Base64 (RFC 4648, standard alphabet, padded) for etcd's JSON gateway, which carries keys and
/// values as base64 strings.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The base64 text of `bytes`.
    static func encode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var iterator = bytes.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next(), third = iterator.next()
            let word = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            output.append(alphabet[Int(word >> 18 & 63)])
            output.append(alphabet[Int(word >> 12 & 63)])
            output.append(second == nil ? UInt8(ascii: "=") : alphabet[Int(word >> 6 & 63)])
            output.append(third == nil ? UInt8(ascii: "=") : alphabet[Int(word & 63)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of the base64 `text`, or nil when it is not base64 (a wrong length, a
    /// character outside the alphabet, padding anywhere but at the end).
    static func decode(_ text: String) -> [UInt8]? {
        let input = Array(text.utf8)
        guard input.count % 4 == 0 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(input.count / 4 * 3)
        var index = 0
        while index < input.count {
            let isLast = index + 4 == input.count
            var word: UInt32 = 0
            var padding = 0
            for offset in 0..<4 {
                let character = input[index + offset]
                // Padding: only in the last group, as "xx==" or "xxx=".
                if character == UInt8(ascii: "="), isLast, offset == 3 || (offset == 2 && input[index + 3] == UInt8(ascii: "=")) {
                    padding += 1
                    word <<= 6
                    continue
                }
                guard padding == 0, let value = sextet(character) else { return nil }
                word = word << 6 | UInt32(value)
            }
            output.append(UInt8(word >> 16 & 0xff))
            if padding < 2 { output.append(UInt8(word >> 8 & 0xff)) }
            if padding < 1 { output.append(UInt8(word & 0xff)) }
            index += 4
        }
        return output
    }

    private static func sextet(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
