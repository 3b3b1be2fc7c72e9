import Glibc

/// A plain OS thread (pthread), for loops that block on sockets: they must never run on the
/// Swift concurrency pool. `join` waits for it to finish.
public final class OSThread: @unchecked Sendable {
    private var thread = pthread_t()
    private final class Box { let body: () -> Void; init(_ body: @escaping () -> Void) { self.body = body } }

    /// Starts `body` on a new thread, with a stack of `stackBytes` if given (the system's default otherwise).
    public init(stackBytes: Int? = nil, _ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        if let stackBytes { pthread_attr_setstacksize(&attributes, stackBytes) }
        let result = pthread_create(&thread, &attributes, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.body()
            return nil
        }, box)
        precondition(result == 0, "pthread_create failed: \(result)")
    }

    /// Waits until the thread's body has returned.
    public func join() {
        pthread_join(thread, nil)
    }
}
