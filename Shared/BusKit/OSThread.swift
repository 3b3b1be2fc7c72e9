#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain OS thread (pthread), for loops that block on sockets: they must never run on the
/// Swift concurrency pool. `join` waits for it to finish.
public final class OSThread: @unchecked Sendable {
    private var thread = pthread_t()
    private final class Box { let body: () -> Void; init(_ body: @escaping () -> Void) { self.body = body } }

    /// Starts `body` on a new thread.
    public init(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        let result = pthread_create(&thread, nil, { raw in
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
