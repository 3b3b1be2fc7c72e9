import Wire

/// What a runtime needs of the bus: publish frames, receive them, change subscriptions, and
/// wait for either. The ZeroMQ `BusConnection` and the `InMemoryBus`'s connections are ones.
/// Owned by one thread.
public protocol BusTransport: AnyObject {
    /// The codec, with the bus's message size limit.
    var codec: EnvelopeCodec { get }
    /// Sends that had to wait for the bus to take them, since the start.
    var sendWaits: UInt64 { get }
    /// Sends given up after waiting too long, since the start.
    var sendsDropped: UInt64 { get }
    /// Its counts, read together: one call in the runtime's loop.
    var counts: TransportCounts { get }
    /// Publishes `frames` (topic, then JSON); throws `BusBackpressure` if the bus never took them.
    func sendRaw(_ frames: [[UInt8]]) throws
    /// Publishes the two frames `topic` and `json` (read during the call only), as `sendRaw` does.
    func send(topic: [UInt8], json: UnsafeBufferPointer<UInt8>) throws
    /// The next message's frames if one is waiting now.
    func receiveFramesNow() throws -> [[UInt8]]?
    /// The next message's frames, waiting up to `timeoutMilliseconds` (-1: for ever).
    func receiveFrames(timeoutMilliseconds: Int) throws -> [[UInt8]]?
    /// Receives the topics starting with `prefix` too.
    func subscribe(_ prefix: String) throws
    /// Stops receiving the topics starting with `prefix`.
    func unsubscribe(_ prefix: String) throws
    /// Waits up to `timeoutMilliseconds` until a message waits, the runtime is asked to stop
    /// (`stopDescriptor` readable, for a process's signals; or the transport's own stop), or it
    /// has something to do that no message brings (`wakeDescriptor` readable: `Wakeup`).
    func wait(timeoutMilliseconds: Int, stopDescriptor: Int32?, wakeDescriptor: Int32?) throws -> TransportWake
    /// Leaves the bus.
    func close()
}

extension BusTransport {
    /// `wait` with no wake descriptor.
    public func wait(timeoutMilliseconds: Int, stopDescriptor: Int32?) throws -> TransportWake {
        try wait(timeoutMilliseconds: timeoutMilliseconds, stopDescriptor: stopDescriptor, wakeDescriptor: nil)
    }

    /// `sendWaits` and `sendsDropped`; one bus counts nothing of a pair.
    public var counts: TransportCounts { TransportCounts(sendWaits: sendWaits, sendsDropped: sendsDropped) }

    /// The frames `topic` and a copy of `json`, through `sendRaw`.
    public func send(topic: [UInt8], json: UnsafeBufferPointer<UInt8>) throws {
        try sendRaw([topic, Array(json)])
    }
}

/// What a transport has counted since the start.
public struct TransportCounts: Sendable, Equatable {
    /// Sends that had to wait for the bus to take them.
    public var sendWaits: UInt64
    /// Sends given up after waiting too long.
    public var sendsDropped: UInt64
    /// Second copies of messages dropped on receipt: a pair of buses delivers each message
    /// twice (`BusPairFilter`); 0 on one bus.
    public var pairCopies: UInt64
    /// Messages one bus of a pair did not take (its queue full) while the other did; 0 on one bus.
    public var pairSkips: UInt64

    /// The counts given.
    public init(sendWaits: UInt64, sendsDropped: UInt64, pairCopies: UInt64 = 0, pairSkips: UInt64 = 0) {
        self.sendWaits = sendWaits; self.sendsDropped = sendsDropped; self.pairCopies = pairCopies; self.pairSkips = pairSkips
    }
}

/// Why `BusTransport.wait` returned (both false: the time ran out).
public struct TransportWake: Sendable, Equatable {
    /// A message is waiting.
    public var message: Bool
    /// The runtime should stop.
    public var stop: Bool
    /// The wake descriptor is readable.
    public var woken: Bool

    /// A wake-up for a `message`, a `stop`, the wake descriptor, some of them or none.
    public init(message: Bool, stop: Bool, woken: Bool = false) { self.message = message; self.stop = stop; self.woken = woken }
}

/// The bus did not take a message for `seconds`: it was given up (and counted).
public struct BusBackpressure: Error, CustomStringConvertible {
    /// How long the send waited before it was given up (`ACTION_TTL_MS`, in seconds).
    public let seconds: Double
    /// The error for a send given up after `seconds`.
    public init(seconds: Double) { self.seconds = seconds }
    /// The error for a person and the logs, naming the `sendsDropped` counter it was added to.
    public var description: String { "the bus did not take a message for \(seconds) s: it was dropped (counted as sendsDropped)" }
}
