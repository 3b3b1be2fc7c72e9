import Domain
import Testing
import TestSupport
import Wire
import TestTiers

/// What a standby reads of an update (`EnvelopeCodec.update`): the same device and body the
/// full decoder reads, the state and the acknowledgement as the frames that came; anything else
/// refused with the decoder's codes.
@Suite(.tags(.unit)) struct UpdateReadingTests {
    let codec = EnvelopeCodec()
    let state = Array("{\"state\":{\"orientation\":\"landscape\"},\"recent\":[\"a-1\"]}".utf8)
    let acknowledgement = [Array("ack".utf8), Array("{\"v\":1,\"type\":\"ack\"}".utf8)]

    func update(_ replica: Replica, device: String? = "ipad") throws -> [[UInt8]] {
        try codec.frames(Samples.envelope(.replica(replica), device: device))
    }

    @Test func itReadsWhatTheCodecWritesAndKeepsTheStateAndTheAcknowledgementAsTheyCame() throws {
        var replica = Replica(standby: "pp-b", owner: "pp-a", epoch: 41, sequence: 7, snapshot: NestedValue(bytes: state), action: "a-1")
        replica.onward = [Onward(topic: "device.layout.changed", message: NestedValue(bytes: Array("{\"id\":\"x\"}".utf8)))]
        let frames = try update(replica)
        #expect(frames.count == 3 && frames[2] == state)
        let read = try EnvelopeCodec.update(frames + acknowledgement)
        #expect(read.replica == replica && read.device == "ipad" && read.acknowledgement == acknowledgement)
        // What the full decoder reads of the same frames.
        #expect(try codec.decode(frames: frames + acknowledgement).body == .replica(replica))
        // Without an acknowledgement, a forgotten device (an empty state frame), or no device.
        let forgotten = Replica(standby: "pp-b", owner: "pp-a", epoch: 41, sequence: 8, snapshot: nil)
        let unacknowledged = try EnvelopeCodec.update(update(forgotten))
        #expect(unacknowledged.replica == forgotten && unacknowledged.device == "ipad" && unacknowledged.acknowledgement.isEmpty)
        #expect(try EnvelopeCodec.update(update(forgotten, device: nil)).device == nil)
    }

    @Test func anythingButAnUpdateIsRefusedWithTheDecodersCodes() throws {
        let good = try update(Replica(standby: "pp-b", owner: "pp-a", epoch: 41, sequence: 7, snapshot: nil))
        func code(_ frames: [[UInt8]]) -> MessageError.Code? {
            #expect(throws: MessageError.self) { try EnvelopeCodec.update(frames) }
            do { _ = try EnvelopeCodec.update(frames) } catch { return error.code }
            return nil
        }
        #expect(code(Array(good.prefix(2))) == .badFrames)
        #expect(code(good + [[]]) == .badFrames)
        #expect(code([Array("ack".utf8)] + good.dropFirst()) == .badFrames)
        #expect(code([good[0], Array("{nope".utf8), []]) == .badJSON)
        let ping = try codec.frames(Samples.envelope(.ping(Ping())))
        #expect(code([good[0], ping[1], []]) == .topicMismatch)
        let text = String(decoding: good[1], as: UTF8.self)
        #expect(code([good[0], Array(text.replacingOccurrences(of: "\"epoch\":41", with: "\"epoch\":\"41\"").utf8), []]) == .badShape)
        #expect(code([good[0], Array(text.replacingOccurrences(of: "\"owner\":\"pp-a\",", with: "").utf8), []]) == .missingField)
        #expect(code([good[0], Array(text.replacingOccurrences(of: "\"device\":\"ipad\"", with: "\"device\":\"\"").utf8), []]) == .badShape)
        #expect(code([good[0], Array(text.replacingOccurrences(of: "\"v\":1", with: "\"v\":2").utf8), []]) == .unsupportedVersion)
        // Refusals name the update's id, for whoever reads the error.
        do { _ = try EnvelopeCodec.update([good[0], Array(text.replacingOccurrences(of: "\"owner\":\"pp-a\",", with: "").utf8), []]) } catch {
            #expect(error.offendingId == "id-1")
        }
    }
}
