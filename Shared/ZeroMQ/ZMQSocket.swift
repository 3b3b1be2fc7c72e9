import CZeroMQ
import Glibc
import ThreadOwnership

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
        try receiveFrames(timeoutMilliseconds: dontWait ? 0 : -1)
    }

    /// Waits up to `timeoutMilliseconds` (-1: for ever) for a message and receives it.
    public func receive(timeoutMilliseconds: Int) throws -> [[UInt8]]? {
        try receiveFrames(timeoutMilliseconds: timeoutMilliseconds)
    }

    /// Waits up to `timeoutMilliseconds` (-1: for ever, 0: not at all) for a message and
    /// receives it into `message`, whose storage is reused: no allocation once it has held a
    /// message as large. False (and `message` empty) when none came.
    public func receive(into message: inout ReceivedMessage, timeoutMilliseconds: Int) throws -> Bool {
        message.removeAll()
        return try receiveParts(timeoutMilliseconds: timeoutMilliseconds) { message.append($0) }
    }

    /// The frames of the next message as arrays (a bus message's two made at once, not grown into).
    /// A first frame with the bytes of the last one is that array again (`lastFirstFrame`).
    private func receiveFrames(timeoutMilliseconds: Int) throws -> [[UInt8]]? {
        var first: [UInt8] = []
        var second: [UInt8] = []
        var more: [[UInt8]] = []
        var count = 0
        let received = try receiveParts(timeoutMilliseconds: timeoutMilliseconds) { frame in
            switch count {
            case 0: first = firstFrame(frame)
            case 1: second = Array(frame)
            case 2: more = [first, second, Array(frame)]
            default: more.append(Array(frame))
            }
            count += 1
        }
        guard received else { return nil }
        switch count {
        case 1: return [first]
        case 2: return [first, second]
        default: return more
        }
    }

    /// The last first frame `receiveFrames` made (a topic), up to `lastFirstFrameLimit` bytes;
    /// used by the socket's one thread (unchecked: a check costs more than the allocation it saves).
    private let lastFirstFrame = ThreadOwned([UInt8]())
    private static let lastFirstFrameLimit = 256

    /// `frame` as an array: `lastFirstFrame` again (a retain, no allocation) when it has the same
    /// bytes — the topics a subscriber receives repeat (`device.tap/presentation-policy/3f`) —
    /// else a new one, kept for the next when it is short.
    private func firstFrame(_ frame: UnsafeRawBufferPointer) -> [UInt8] {
        let count = frame.count
        if count == lastFirstFrame.value.count, count > 0,
           lastFirstFrame.value.withUnsafeBytes({ memcmp($0.baseAddress!, frame.baseAddress!, count) == 0 }) {
            return lastFirstFrame.value
        }
        let made = Array(frame)
        if count <= Self.lastFirstFrameLimit { lastFirstFrame.value = made }
        return made
    }

    /// Receives one whole message, handing `frame` each frame's bytes (valid during the call),
    /// waiting up to `timeoutMilliseconds` for its first: a blocking receive with `ZMQ_RCVTIMEO`,
    /// which takes a message already waiting at once and otherwise sleeps in libzmq until one
    /// comes (cheaper than a `zmq_poll` before each receive); with 0, `ZMQ_DONTWAIT` (the option
    /// stays as it is). False when none came in time.
    private func receiveParts(timeoutMilliseconds: Int, _ frame: (UnsafeRawBufferPointer) -> Void) throws -> Bool {
        if timeoutMilliseconds != 0 { try setReceiveTimeout(timeoutMilliseconds) }
        var message = zmq_msg_t()
        zmq_msg_init(&message)
        defer { zmq_msg_close(&message) }
        var isFirst = true
        while true {
            // libzmq delivers a multipart message whole: only its first frame can be missing.
            if zmq_msg_recv(&message, handle, isFirst && timeoutMilliseconds == 0 ? ZMQ_DONTWAIT : 0) < 0 {
                // Nothing (yet) is common: answered without making an error (and its text).
                let code = zmq_errno()
                if code == EAGAIN && isFirst { return false }
                if code == EINTR { continue }
                throw ZMQError.last("receive")
            }
            isFirst = false
            let size = zmq_msg_size(&message)
            frame(UnsafeRawBufferPointer(start: size > 0 ? zmq_msg_data(&message) : nil, count: size))
            if zmq_msg_more(&message) == 0 { return true }
        }
    }

    /// The `ZMQ_RCVTIMEO` last set: libzmq's default (-1, for ever) until changed. Read before
    /// every receive, by the socket's one thread.
    private let receiveTimeout = ThreadOwned(Int32(-1))

    /// Sets `ZMQ_RCVTIMEO` (how long a receive waits for a first frame) when it changes.
    private func setReceiveTimeout(_ milliseconds: Int) throws {
        let milliseconds = Int32(clamping: max(-1, milliseconds))
        guard milliseconds != receiveTimeout.value else { return }
        var value = milliseconds
        guard zmq_setsockopt(handle, ZMQ_RCVTIMEO, &value, MemoryLayout<Int32>.size) == 0 else {
            throw ZMQError.last("setsockopt ZMQ_RCVTIMEO")
        }
        receiveTimeout.value = milliseconds
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
