import Dispatch
import Domain
import ProcessSupport
import Runtime
import Testing
import TestTiers
import Wire

/// `ServiceRuntime`'s loop on the in-memory bus: what makes it pass.
@Suite(.tags(.inMemory)) struct ServiceRuntimeTests {
    /// What the test and the handler, on the loop's thread, share.
    final class Probe: @unchecked Sendable {
        let wakeup = Wakeup()
        /// Signalled when the path through the bus is live.
        let live = DispatchSemaphore(value: 0)
        /// Signalled by each `messagesOfItsOwn` once live, after it read `told`.
        let asked = DispatchSemaphore(value: 0)
        /// Whether the handler is to publish a message of its own.
        let told = Locked(false)
        let isLive = Locked(false)
    }

    /// Handles nothing; publishes one rotation of its own when told to.
    struct Told: ServiceHandler {
        let handledTypes: [MessageType] = []
        let probe: Probe
        var wakeup: Wakeup? { probe.wakeup }
        mutating func handle(_ envelope: Envelope) -> Reply { Reply([]) }
        mutating func busIsLive() {
            probe.isLive.withLock { $0 = true }
            probe.live.signal()
        }
        mutating func messagesOfItsOwn() -> [Effect] {
            let told = probe.told.withLock { told in defer { told = false }; return told }
            if probe.isLive.current { probe.asked.signal() }
            return told ? [Effect(.rotate(Rotate(orientation: .landscape)), device: "d1")] : []
        }
    }

    /// A loop waiting for its next heartbeat (ten minutes away) and for messages passes as soon
    /// as its handler's wake-up is signalled: a sharded instance follows its members at once.
    @Test func aWakeupMakesTheLoopPassWithoutAMessage() throws {
        let bus = InMemoryBus()
        let probe = Probe()
        // Handed to the loop's thread, which owns it from then on.
        nonisolated(unsafe) let runtime = ServiceRuntime(
            name: "told", handler: Told(probe: probe), config: BusConfig(heartbeatIntervalMilliseconds: 600_000, logLevel: .error))
        let connection = bus.connect(service: "told", subscriptions: runtime.subscriptions)
        let watcher = bus.connect(service: "watcher", subscriptions: ["device.rotate"])
        let thread = OSThread { try? runtime.run(on: connection) }
        defer {
            bus.stopAll()
            thread.join()
        }
        #expect(probe.live.wait(timeout: .now() + 10) == .success)
        // The pass after the bus became live has asked: the next one comes only from a wake.
        #expect(probe.asked.wait(timeout: .now() + 10) == .success)
        probe.told.withLock { $0 = true }
        #expect(try watcher.receiveFrames(timeoutMilliseconds: 100) == nil)
        probe.wakeup.signal()
        let frames = try #require(try watcher.receiveFrames(timeoutMilliseconds: 10_000))
        #expect(try watcher.codec.decode(frames: frames).body == .rotate(Rotate(orientation: .landscape)))
    }
}
