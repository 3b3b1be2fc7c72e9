import Domain
import Testing
import Wire
import TestTiers

/// A topic frame is the type's name, then each part given after a `/`, and nothing more.
@Suite(.tags(.unit)) struct TopicFrameTests {
    @Test func aFrameHoldsTheNameAndThePartsGivenAndNothingElse() {
        let name = Array(MessageType.tap.topicFrame)
        let device = Array("ipad".utf8), bucket = Array("07".utf8)
        device.withUnsafeBytes { device in
            bucket.withUnsafeBytes { bucket in
                #expect(Topic.frame(.tap, nil as UnsafeRawBufferPointer?, nil) == name)
                #expect(Topic.frame(.tap, nil as UnsafeRawBufferPointer?, bucket) == name + Array("/07".utf8))
                #expect(Topic.frame(.tap, device, nil) == name + Array("/ipad".utf8))
                #expect(Topic.frame(.tap, device, bucket) == name + Array("/ipad/07".utf8))
            }
        }
    }
}
