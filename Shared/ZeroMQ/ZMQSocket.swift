import CZeroMQ

/// One libzmq socket. Not thread-safe: create it, use it and close it on one thread.
public final class ZMQSocket {
    /// The raw `void *` socket, for polling and proxying.
    let handle: UnsafeMutableRawPointer
    private var isClosed = false

    /// Opens a socket of `type` in `context`, with `ZMQ_LINGER` set to `lingerMilliseconds`
    /// so that closing it can never hang on undelivered messages.
    public init(_ context: ZMQContext, _ type: SocketType, lingerMilliseconds: Int32 = 0) throws {
        guard let handle = zmq_socket(context.handle, type.raw) else { throw ZMQError.last("zmq_socket") }
        self.handle = handle
        try set(.linger, lingerMilliseconds)
    }

    deinit { close() }

    /// Closes the socket (idempotent).
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        zmq_close(handle)
    }

    /// Binds to `endpoint`, e.g. `tcp://127.0.0.1:*`; read the real one back with `lastEndpoint`.
    public func bind(_ endpoint: String) throws {
        guard zmq_bind(handle, endpoint) == 0 else { throw ZMQError.last("bind \(endpoint)") }
    }

    /// Connects to `endpoint`; libzmq reconnects by itself if the peer goes away.
    public func connect(_ endpoint: String) throws {
        guard zmq_connect(handle, endpoint) == 0 else { throw ZMQError.last("connect \(endpoint)") }
    }

    /// The endpoint the socket last bound or connected to, with the real port for `*`.
    public var lastEndpoint: String {
        (try? getString(.lastEndpoint)) ?? ""
    }

    /// Subscribes a SUB socket to every message whose first frame starts with `prefix`.
    public func subscribe(_ prefix: String) throws {
        try set(.subscribe, Array(prefix.utf8))
    }

    /// Removes a subscription made with `subscribe`.
    public func unsubscribe(_ prefix: String) throws {
        try set(.unsubscribe, Array(prefix.utf8))
    }

    // MARK: Sending and receiving whole messages

    /// Sends one multipart message. Returns `false` (nothing sent) when `dontWait` is set and
    /// the socket cannot take it now (`EAGAIN`: high-water mark reached, or no peer).
    @discardableResult
    public func send(_ frames: [[UInt8]], dontWait: Bool = false) throws -> Bool {
        precondition(!frames.isEmpty, "a message has at least one frame")
        for (index, frame) in frames.enumerated() {
            var flags: Int32 = dontWait ? ZMQ_DONTWAIT : 0
            if index < frames.count - 1 { flags |= ZMQ_SNDMORE }
            guard try frame.withUnsafeBytes({ try send(frame: $0, flags: flags, isFirst: index == 0) }) else { return false }
        }
        return true
    }

    /// Sends the two frames `first` and `second` as one message (as `send(_:dontWait:)` does
    /// with two frames), from the caller's memory.
    public func send(_ first: [UInt8], _ second: UnsafeBufferPointer<UInt8>, dontWait: Bool = false) throws -> Bool {
        let flags: Int32 = dontWait ? ZMQ_DONTWAIT : 0
        let sent = try first.withUnsafeBytes { first in
            try send(frame: UnsafeRawBufferPointer(first), flags: flags | ZMQ_SNDMORE, isFirst: true)
        }
        guard sent else { return false }
        return try send(frame: UnsafeRawBufferPointer(second), flags: flags, isFirst: false)
    }

    /// Sends one frame, again when interrupted; false when it is the message's first and the
    /// socket would block (libzmq queues multipart messages atomically: only the first frame
    /// can be refused).
    private func send(frame: UnsafeRawBufferPointer, flags: Int32, isFirst: Bool) throws -> Bool {
        while true {
            if zmq_send(handle, frame.baseAddress, frame.count, flags) >= 0 { return true }
            let error = ZMQError.last("send")
            if error.isInterrupted { continue }
            if error.wouldBlock && isFirst { return false }
            throw error
        }
    }

    /// Receives one whole multipart message, of any size. Returns `nil` when `dontWait` is set
    /// and nothing is waiting.
    public func receive(dontWait: Bool = false) throws -> [[UInt8]]? {
        var frames: [[UInt8]] = []
        var message = zmq_msg_t()
        zmq_msg_init(&message)
        defer { zmq_msg_close(&message) }
        while true {
            let flags: Int32 = (dontWait && frames.isEmpty) ? ZMQ_DONTWAIT : 0
            if zmq_msg_recv(&message, handle, flags) < 0 {
                // Nothing waiting (`dontWait`) is common: answered without making an error (and its text).
                let code = zmq_errno()
                if code == EAGAIN && frames.isEmpty { return nil }
                if code == EINTR { continue }
                throw ZMQError.last("receive")
            }
            let size = zmq_msg_size(&message)
            // Bus messages have two frames: room for both at once, not a regrowth on the second.
            if frames.isEmpty { frames.reserveCapacity(2) }
            if let data = zmq_msg_data(&message), size > 0 {
                frames.append(Array(UnsafeRawBufferPointer(start: data, count: size)))
            } else {
                frames.append([])
            }
            if zmq_msg_more(&message) == 0 { return frames }
        }
    }

    /// Waits up to `timeoutMilliseconds` (-1: for ever) for a message and receives it.
    public func receive(timeoutMilliseconds: Int) throws -> [[UInt8]]? {
        // One item polled in place (`poll(_:timeoutMilliseconds:)` would build two arrays per call).
        var item = zmq_pollitem_t(socket: handle, fd: 0, events: Int16(ZMQ_POLLIN), revents: 0)
        while zmq_poll(&item, 1, timeoutMilliseconds) < 0 {
            let error = ZMQError.last("poll")
            if !error.isInterrupted { throw error }
        }
        return item.revents & Int16(ZMQ_POLLIN) != 0 ? try receive(dontWait: true) : nil
    }

    // MARK: Options

    /// Sets an integer option.
    public func set(_ option: SocketOption, _ value: Int32) throws {
        var value = value
        guard zmq_setsockopt(handle, option.raw, &value, MemoryLayout<Int32>.size) == 0 else {
            throw ZMQError.last("setsockopt \(option)")
        }
    }

    /// Sets a 64-bit integer option (e.g. `maxMessageSize`).
    public func set(_ option: SocketOption, _ value: Int64) throws {
        var value = value
        guard zmq_setsockopt(handle, option.raw, &value, MemoryLayout<Int64>.size) == 0 else {
            throw ZMQError.last("setsockopt \(option)")
        }
    }

    /// Sets a binary or text option (subscriptions, keys, ZAP domain).
    public func set(_ option: SocketOption, _ bytes: [UInt8]) throws {
        let result = bytes.withUnsafeBytes { zmq_setsockopt(handle, option.raw, $0.baseAddress, $0.count) }
        guard result == 0 else { throw ZMQError.last("setsockopt \(option)") }
    }

    /// Sets a text option.
    public func set(_ option: SocketOption, _ text: String) throws {
        try set(option, Array(text.utf8))
    }

    /// Reads an integer option.
    public func getInt(_ option: SocketOption) throws -> Int32 {
        var value: Int32 = 0
        var size = MemoryLayout<Int32>.size
        guard zmq_getsockopt(handle, option.raw, &value, &size) == 0 else {
            throw ZMQError.last("getsockopt \(option)")
        }
        return value
    }

    /// Reads a text option (up to 1 KiB).
    public func getString(_ option: SocketOption) throws -> String {
        var buffer = [UInt8](repeating: 0, count: 1024)
        var size = buffer.count
        guard zmq_getsockopt(handle, option.raw, &buffer, &size) == 0 else {
            throw ZMQError.last("getsockopt \(option)")
        }
        let end = buffer[..<size].firstIndex(of: 0) ?? size
        return String(decoding: buffer[..<end], as: UTF8.self)
    }
}
