import ProcessSupport
import Runtime

/// The services started inside the gateway's process over an in-memory bus (`--embedded`, and
/// `gateway test` once per file): the gateway's connection to them, and how to stop them.
public struct EmbeddedStack {
    /// Starts the services with a configuration and gives the stack; called on the thread that
    /// will use the connection (a file of `gateway test --jobs N` runs on a thread of its own).
    public typealias Start = @Sendable (BusConfig) throws -> EmbeddedStack

    /// The gateway's connection to the services.
    public let transport: any BusTransport
    /// Stops every service and removes what they kept (the roster's database).
    public let stop: () -> Void

    /// A stack from its connection and its stop.
    public init(transport: any BusTransport, stop: @escaping () -> Void) {
        self.transport = transport; self.stop = stop
    }
}
