import Domain
@testable import Sharding
import Testing
import TestTiers
import Wire

/// An owner's update writes a device's snapshot as `DeviceSnapshot` is written, a state it wrote
/// lately copied from its memo: the same bytes either way, and another state is never taken for it.
@Suite(.tags(.unit)) struct SnapshotWriterTests {
    @Test func theSnapshotIsWrittenAsItsFieldsWriteItWhetherTheStateWasKeptOrNot() throws {
        var writer = SnapshotWriter<Ack>()
        let one = Ack(handled: "device.tap", handledId: "a-1", emitted: ["m-\"1\""], forwarded: [Forward(id: "m-2", service: "input-handling")])
        var other = one
        other.emitted = ["m-3"]
        for (state, recent) in [(one, ["a-1"]), (one, ["a-1", "a-2"]), (other, []), (one, ["a-3"]), (other, ["a\\4"])] {
            let written = try writer.write(state, recent: recent)
            #expect(written.bytes == (try JSONCoding.encode(DeviceSnapshot(state: state, recent: recent))))
            let read = try JSONCoding.decode(DeviceSnapshot<Ack>.self, from: written.bytes)
            #expect(read.state == state && read.recent == recent)
        }
    }
}
