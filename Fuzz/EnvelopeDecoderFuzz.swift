// libFuzzer target over the envelope decoder (built by Scripts/fuzz with -sanitize=fuzzer).
// The input is split at NUL bytes into frames. Whatever the bytes:
// - decoding must not crash;
// - what the JSON reader accepts, Foundation's parser accepts too (it may be stricter, never
//   more lenient: a trailing comma, which Foundation takes, it refuses);
// - what decodes must encode and decode back to the same envelope, with its time parsed;
// - the members the bus reads without decoding (`EnvelopeView`) are the decoded envelope's.
import Domain
import Foundation
import JSON

/// The codec under test, one per process (libFuzzer runs inputs on one thread).
nonisolated(unsafe) let codec = EnvelopeCodec(maxMessageBytes: 65_536)
/// A sender's reused writer (`EnvelopeCodec.write(_:into:)`).
nonisolated(unsafe) let writer = JSONWriter()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let frames = bytes.split(separator: 0, maxSplits: 3, omittingEmptySubsequences: false).map(Array.init)
    let json = frames.count == 1 ? frames[0] : frames[1]
    compareTreeWithFoundation(json)
    let received: EnvelopeCodec.Received
    do {
        received = try frames.count == 1 ? codec.receive(frames[0]) : codec.receive(frames: frames)
    } catch {
        return 0
    }
    let decoded = received.envelope
    guard received.sent == Timestamp.parse(decoded.time) else {
        fatalError("the decoder's time \(received.sent) is not the envelope's \(decoded.time)")
    }
    // Foundation refuses a number too large for a double wherever it stands; the decoder reads
    // no value of a member it does not know, so it may pass over one there (the tree reader,
    // which reads every value, refuses it with Foundation).
    guard (try? JSONSerialization.jsonObject(with: Data(json))) != nil || onlyANumberTooLarge(json) else {
        fatalError("the decoder accepted what Foundation's parser refuses: \(String(decoding: json, as: UTF8.self))")
    }
    compareViewWithEnvelope(json, decoded)
    let again: Envelope
    do {
        again = try codec.decode(frames: codec.frames(decoded))
    } catch {
        fatalError("a decoded envelope failed to decode after encoding: \(error)")
    }
    guard again == decoded else { fatalError("round trip changed the envelope: \(decoded) became \(again)") }
    // Written into a sender's writer (published from its bytes), the same frames.
    if let frames = try? codec.frames(decoded), let topic = try? codec.write(decoded, into: writer), [topic, writer.bytes] != frames {
        fatalError("writing into a writer and the frames disagree for \(decoded)")
    }
    return 0
}

/// Whether the tree reader refuses `json` only for a value a double cannot hold.
func onlyANumberTooLarge(_ json: [UInt8]) -> Bool {
    do {
        _ = try JSONValue.parse(json)
        return false
    } catch {
        return error.kind == .value && error.reason.contains("too large for a double")
    }
}

/// What the tree reader accepts as JSON, Foundation's parser accepts.
func compareTreeWithFoundation(_ json: [UInt8]) {
    guard (try? JSONValue.parse(json)) != nil else { return }
    if (try? JSONSerialization.jsonObject(with: Data(json), options: [.fragmentsAllowed])) == nil {
        fatalError("the JSON reader accepted what Foundation's parser refuses: \(String(decoding: json, as: UTF8.self))")
    }
}

/// The members the bus reads of `json` are those of `envelope`, decoded from it.
func compareViewWithEnvelope(_ json: [UInt8], _ envelope: Envelope) {
    json.withUnsafeBytes { raw in
        guard let view = EnvelopeView(raw, parts: .all) else { fatalError("the bus cannot read what decodes: \(envelope)") }
        let reader = JSONReader(raw.assumingMemoryBound(to: UInt8.self))
        func text(_ key: JSONReader.Key?) -> String? { key.map { reader.text(of: $0) } }
        guard text(view.service) == envelope.service, text(view.device) == envelope.device, text(view.replyTo) == envelope.replyTo,
              text(view.id) == envelope.id, text(view.correlationId) == envelope.correlationId else {
            fatalError("the bus reads other header members than the decoder: \(envelope)")
        }
    }
}
