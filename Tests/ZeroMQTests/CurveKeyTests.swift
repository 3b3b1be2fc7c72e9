import Testing
import ZeroMQ
import TestTiers

/// Z85 and CURVE keys, through libzmq.
@Suite(.tags(.inMemory)) struct CurveKeyTests {
    @Test func z85MatchesTheRFCExample() {
        let bytes: [UInt8] = [0x86, 0x4F, 0xD2, 0x6F, 0xB5, 0x59, 0xF7, 0x5B]
        #expect(Z85.encode(bytes) == "HelloWorld")
        #expect(Z85.decode("HelloWorld") == bytes)
    }

    @Test func z85RoundTripsAnyBytesInGroupsOfFour() {
        var generator = SystemRandomNumberGenerator()
        for count in [0, 4, 32, 128] {
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let text = Z85.encode(bytes)
            #expect(text?.count == count / 4 * 5)
            #expect(text.flatMap(Z85.decode) == bytes)
        }
        #expect(Z85.encode([0xFF, 0xFF, 0xFF, 0xFF]).flatMap(Z85.decode) == [0xFF, 0xFF, 0xFF, 0xFF])
    }

    @Test func z85RefusesWhatIsNotZ85() {
        #expect(Z85.encode([1, 2, 3]) == nil)
        #expect(Z85.decode("Hello") != nil)
        #expect(Z85.decode("Hell") == nil)          // not a multiple of 5
        #expect(Z85.decode("Hel o") == nil)         // a space is not in the alphabet
        #expect(Z85.decode("Hel\"o") == nil)        // nor is a quote
        #expect(Z85.decode("#####") == nil)         // 85⁵−1 does not fit 32 bits
        #expect(Z85.decode("%nSc0") == [0xFF, 0xFF, 0xFF, 0xFF])  // 2³²−1, the largest group
        #expect(Z85.decode("%nSc1") == nil)         // 2³², the smallest that does not fit
    }

    @Test func aKeyIsFortyCharactersOfZ85() throws {
        let text = "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7"
        let key = try #require(CurveKey(z85: text))
        #expect(key.bytes.count == 32)
        #expect(key.z85 == text)
        #expect(CurveKey(z85: String(text.dropLast())) == nil)
        #expect(CurveKey(z85: text + "12345") == nil)
        #expect(CurveKey(bytes: [UInt8](repeating: 0, count: 31)) == nil)
    }

    @Test func generatedPairsAreFreshAndConsistent() throws {
        let first = try CurveKeyPair.generate()
        let second = try CurveKeyPair.generate()
        #expect(first.publicKey != second.publicKey)
        #expect(first.secretKey != first.publicKey)
        #expect(try CurveKeyPair.publicKey(of: first.secretKey) == first.publicKey)
        #expect(try CurveKeyPair(secretKey: second.secretKey) == second)
    }

    /// The server keys of ZeroMQ's CURVE example (RFC 26 and `zmq_curve`'s manual).
    @Test func thePublicKeyIsDerivedFromTheSecretKey() throws {
        let secret = try #require(CurveKey(z85: "JTKVSB%%)wK0E.X)V>+}o?pNmC{O&4W4b!Ni{Lh6"))
        #expect(try CurveKeyPair.publicKey(of: secret).z85 == "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7")
    }

    @Test func aKeyPairNeverPrintsItsSecret() throws {
        let pair = try CurveKeyPair.generate()
        for text in [String(describing: pair), String(reflecting: pair), "\(pair)"] {
            #expect(!text.contains(pair.secretKey.z85))
            #expect(text.contains(pair.publicKey.z85))
        }
    }
}
