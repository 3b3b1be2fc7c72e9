// libFuzzer target over the envelope decoder (built by Scripts/fuzz with -sanitize=fuzzer).
// The input is split at NUL bytes into frames. Whatever the bytes:
// - decoding must not crash;
// - what decodes must encode and decode back to the same envelope;
// - what the fast decoder accepts, Foundation's JSONDecoder must accept with an equal value
//   (the fast coders replace Foundation's: they may be stricter, never more lenient or different);
// - the direct decoder (DirectDecoding, for the actions and their answers) and the Decodable
//   path give the same outcome: the same envelope, or the same error (code and reason); what the
//   direct decoder reads, the Decodable path reads alike;
// - the direct writer (DirectEncoding) writes the bytes of the Encodable path, and writing
//   into a sender's writer (`EnvelopeCodec.write(_:into:topics:)`, its recent topic frames kept
//   across inputs) gives the same frames;
// - a receiver keeping the last `replyTo` it read (`RecentText`) decodes the same envelope.
import Domain
import Foundation

/// The codec under test, one per process (libFuzzer runs inputs on one thread).
nonisolated(unsafe) let codec = EnvelopeCodec(maxMessageBytes: 65_536)
nonisolated(unsafe) let foundation = JSONDecoder()
/// A sender's reused writer (`EnvelopeCodec.write(_:into:topics:)`).
nonisolated(unsafe) let writer = JSONWriter()
/// The sender's recent topic frames, kept across inputs (`TopicFrames`).
nonisolated(unsafe) var topics = TopicFrames()
/// A receiver's last `replyTo`, kept across inputs (`EnvelopeCodec.decode(frames:replyTo:)`).
nonisolated(unsafe) var recentReplyTo = RecentText()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let frames = bytes.split(separator: 0, maxSplits: 3, omittingEmptySubsequences: false).map(Array.init)
    compareDirectWithDecodable(frames.count == 1 ? frames[0] : frames[1])
    let decoded: Envelope
    do {
        decoded = try frames.count == 1 ? codec.decode(frames[0]) : codec.decode(frames: frames)
    } catch {
        return 0
    }
    // A receiver keeping the last replyTo it read decodes the same envelope.
    if frames.count != 1, (try? codec.decode(frames: frames, replyTo: &recentReplyTo)) != decoded {
        fatalError("keeping the last replyTo changed what was decoded: \(decoded)")
    }
    // The time the decoder read while checking it is the envelope's time, parsed.
    var sent = -1.0
    if frames.count != 1, (try? codec.decode(frames: frames, replyTo: &recentReplyTo, sent: &sent)) != decoded || sent != Timestamp.parse(decoded.time) {
        fatalError("the decoder's time \(sent) is not the envelope's \(decoded.time)")
    }
    let json = frames.count == 1 ? frames[0] : frames[1]
    guard let reference = try? foundation.decode(Envelope.self, from: Data(json)) else {
        fatalError("the fast decoder accepted what Foundation refuses: \(String(decoding: json, as: UTF8.self))")
    }
    guard reference == decoded else {
        fatalError("the fast decoder and Foundation disagree: \(decoded) versus \(reference)")
    }
    let again: Envelope
    do {
        again = try codec.decode(frames: codec.frames(decoded))
    } catch {
        fatalError("a decoded envelope failed to decode after encoding: \(error)")
    }
    guard again == decoded else { fatalError("round trip changed the envelope: \(decoded) became \(again)") }
    // The direct writer (the actions and their answers) writes exactly the `Encodable` path's bytes.
    if let direct = DirectEncoding.encode(decoded), let encodable = try? FastJSONEncoder.encode(decoded), direct != encodable {
        fatalError("the direct writer and the Encodable path disagree: \(String(decoding: direct, as: UTF8.self)) versus \(String(decoding: encodable, as: UTF8.self))")
    }
    // Written into a sender's writer (published from its bytes), the same frames.
    if let frames = try? codec.frames(decoded), let topic = try? codec.write(decoded, into: writer, topics: &topics),
       [topic, writer.withBytes { Array($0) }] != frames {
        fatalError("writing into a writer and the frames disagree for \(decoded)")
    }
    return 0
}

/// The codec's answer for `json` (direct path first) is the `Decodable` path's, and whatever the
/// direct decoder reads, the `Decodable` path reads as the same envelope.
func compareDirectWithDecodable(_ json: [UInt8]) {
    guard json.count <= codec.maxMessageBytes, String(validating: json, as: UTF8.self) != nil else { return }
    let reference: Result<Envelope, MessageError>
    do { reference = .success(try codec.decodeThroughDecodable(json)) } catch { reference = .failure(error) }
    let answer: Result<Envelope, MessageError>
    do { answer = .success(try codec.decode(json)) } catch { answer = .failure(error) }
    guard answer == reference else {
        fatalError("the codec and the Decodable path disagree: \(answer) versus \(reference) on \(String(decoding: json, as: UTF8.self))")
    }
    if let direct = DirectDecoding.decode(json), reference != .success(direct) {
        fatalError("the direct decoder read \(direct) where the Decodable path gives \(reference): \(String(decoding: json, as: UTF8.self))")
    }
}
