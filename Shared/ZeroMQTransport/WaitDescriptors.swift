import Runtime
import ZeroMQ

/// The descriptors a transport's `wait` polls after its sockets: the stop descriptor, then the
/// wake descriptor, each when given. Compared to reuse a poller made for the same ones.
struct WaitDescriptors: Equatable {
    let stop: Int32?
    let wake: Int32?
    /// The index of the first descriptor in the poller: the number of sockets before them.
    let after: Int

    init(stop: Int32?, wake: Int32?, after sockets: Int) {
        self.stop = stop
        self.wake = wake
        after = sockets
    }

    /// The poll items of the descriptors given, in order.
    var items: [PollItem] { [stop, wake].compactMap { $0.map(PollItem.fileDescriptor) } }

    /// What `poller`, just waited on, says of the descriptors, with `message` for the sockets.
    func wake(message: Bool, _ poller: Poller) -> TransportWake {
        let wakeIndex = after + (stop == nil ? 0 : 1)
        return TransportWake(
            message: message, stop: stop != nil && poller.isReady(after), woken: wake != nil && poller.isReady(wakeIndex))
    }
}
