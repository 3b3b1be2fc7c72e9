import CZeroMQ

/// Something `poll` can wait on: a socket, or a plain file descriptor (e.g. a wake-up pipe).
public enum PollItem {
    /// A socket with a message to receive.
    case socket(ZMQSocket)
    /// A socket that can take a message to send now.
    case socketWritable(ZMQSocket)
    /// A file descriptor with something to read.
    case fileDescriptor(Int32)
}

/// Waits until at least one item is ready or `timeoutMilliseconds` pass (-1: for ever).
/// Returns, for each item in order, whether it is ready. Retries when a signal interrupts.
public func poll(_ items: [PollItem], timeoutMilliseconds: Int) throws -> [Bool] {
    var raw = items.map { item -> zmq_pollitem_t in
        switch item {
        case .socket(let socket):
            zmq_pollitem_t(socket: socket.handle, fd: 0, events: Int16(ZMQ_POLLIN), revents: 0)
        case .socketWritable(let socket):
            zmq_pollitem_t(socket: socket.handle, fd: 0, events: Int16(ZMQ_POLLOUT), revents: 0)
        case .fileDescriptor(let fd):
            zmq_pollitem_t(socket: nil, fd: fd, events: Int16(ZMQ_POLLIN), revents: 0)
        }
    }
    while true {
        let count = zmq_poll(&raw, Int32(raw.count), timeoutMilliseconds)
        if count >= 0 { break }
        let error = ZMQError.last("poll")
        if !error.isInterrupted { throw error }
    }
    return withExtendedLifetime(items) { raw.map { $0.revents & $0.events != 0 } }
}
