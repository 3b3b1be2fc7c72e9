import CZeroMQ
import Glibc
import ThreadOwnership

/// One multipart message held as libzmq messages, for a proxy: received, looked at and sent
/// on without copying its frames. Reused from message to message; owned by one thread.
public final class Multipart {
    /// Frames kept; the frames of a longer message are counted and let go.
    public let capacity: Int
    private let parts: UnsafeMutablePointer<zmq_msg_t>
    // The two counts, read and written several times per message by the one thread that owns
    // this object.
    private let heldFrames = ThreadOwned(0)
    private let allFrames = ThreadOwned(0)
    /// Frames held (at most `capacity`).
    public var held: Int { heldFrames.value }
    /// Frames the last message had in all.
    public var frameCount: Int { allFrames.value }
    /// Where a frame past `capacity` is received (and let go): made once, not for every message.
    private let spare = UnsafeMutablePointer<zmq_msg_t>.allocate(capacity: 1)

    /// Room for `capacity` frames.
    public init(capacity: Int) {
        self.capacity = capacity
        parts = .allocate(capacity: capacity)
        for index in 0..<capacity { zmq_msg_init(parts + index) }
        zmq_msg_init(spare)
    }

    deinit {
        for index in 0..<capacity { zmq_msg_close(parts + index) }
        parts.deallocate()
        zmq_msg_close(spare)
        spare.deallocate()
    }

    /// Receives one whole message from `socket` if one is waiting; false if none is.
    public func receive(from socket: ZMQSocket) throws -> Bool {
        heldFrames.value = 0
        allFrames.value = 0
        // The frames past `capacity` go through `spare`, let go at once.
        defer {
            if allFrames.value > capacity {
                zmq_msg_close(spare)
                zmq_msg_init(spare)
            }
        }
        while true {
            let target = heldFrames.value < capacity ? parts + heldFrames.value : spare
            if zmq_msg_recv(target, socket.handle, allFrames.value == 0 ? ZMQ_DONTWAIT : 0) < 0 {
                // Nothing waiting ends every batch: answered without making an error (and its text).
                let code = zmq_errno()
                if code == EAGAIN && allFrames.value == 0 { return false }
                if code == EINTR { continue }
                throw ZMQError.last("receive")
            }
            allFrames.value += 1
            let more = zmq_msg_more(target) != 0
            if heldFrames.value < capacity { heldFrames.value += 1 }
            if !more { return true }
        }
    }

    /// The bytes of frame `index` (valid until the next receive or send).
    public func bytes(_ index: Int) -> UnsafeRawBufferPointer {
        precondition(index < heldFrames.value)
        let size = zmq_msg_size(parts + index)
        guard size > 0, let data = zmq_msg_data(parts + index) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: data, count: size)
    }

    /// The bytes of the first frame held and of the second (nil when the message has one frame),
    /// valid until the next receive or send: what a proxy reads of each message, in one call.
    /// Empty bytes (no base address) when no frame is held.
    public func topicAndBody() -> (topic: UnsafeRawBufferPointer, body: UnsafeRawBufferPointer?) {
        let held = heldFrames.value
        guard held > 0 else { return (UnsafeRawBufferPointer(start: nil, count: 0), nil) }
        let topic = Self.bytes(of: parts)
        return (topic, held > 1 ? Self.bytes(of: parts + 1) : nil)
    }

    /// The bytes of `part` (no base address when empty, as `bytes(_:)` gives them).
    @inline(__always)
    private static func bytes(of part: UnsafeMutablePointer<zmq_msg_t>) -> UnsafeRawBufferPointer {
        let size = zmq_msg_size(part)
        return UnsafeRawBufferPointer(start: size > 0 ? zmq_msg_data(part) : nil, count: size)
    }

    /// Replaces the bytes of held frame `index` with `bytes` (e.g. a proxy re-addressing a topic).
    public func replaceFrame(_ index: Int, with bytes: [UInt8]) {
        precondition(index < heldFrames.value)
        zmq_msg_close(parts + index)
        zmq_msg_init_size(parts + index, bytes.count)
        if !bytes.isEmpty, let data = zmq_msg_data(parts + index) {
            bytes.withUnsafeBytes { data.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
        }
    }

    /// Lets go of the held frames (a refused message's memory is not kept until the next one).
    public func discard() {
        for index in 0..<heldFrames.value {
            zmq_msg_close(parts + index)
            zmq_msg_init(parts + index)
        }
        heldFrames.value = 0
    }

    /// A metadata property of the message's connection (e.g. `User-Id`, set by the ZAP
    /// handler), as a C string valid while the frame is held; `nil` if it has none.
    public func property(_ name: StaticString) -> UnsafePointer<CChar>? {
        guard heldFrames.value > 0 else { return nil }
        return name.withUTF8Buffer { text in
            text.baseAddress!.withMemoryRebound(to: CChar.self, capacity: text.count + 1) { zmq_msg_gets(parts, $0) }
        }
    }

    /// The file descriptor of the connection the message came in on (-1 if unknown).
    public var sourceDescriptor: Int32 {
        guard heldFrames.value > 0 else { return -1 }
        return zmq_msg_get(parts, ZMQ_SRCFD)
    }

    /// Sends the held frames on `socket`, leaving them empty. A socket that would block
    /// (`EAGAIN`) gets nothing and false is returned; libzmq queues a message whole or not at all.
    @discardableResult
    public func send(to socket: ZMQSocket, dontWait: Bool = true) throws -> Bool {
        for index in 0..<heldFrames.value {
            var flags: Int32 = dontWait ? ZMQ_DONTWAIT : 0
            if index < heldFrames.value - 1 { flags |= ZMQ_SNDMORE }
            while zmq_msg_send(parts + index, socket.handle, flags) < 0 {
                let error = ZMQError.last("send")
                if error.isInterrupted { continue }
                if error.wouldBlock && index == 0 { return false }
                throw error
            }
        }
        heldFrames.value = 0
        return true
    }
}

/// A fixed set of things to poll, built once (the proxy polls millions of times).
/// `wait` is libzmq's `zmq_poll` (a `poll(2)` on each socket's `ZMQ_FD` and the plain
/// descriptors, first without waiting; a socket is ready by its `ZMQ_EVENTS`, read after every
/// `poll(2)` because `ZMQ_FD` only signals that its commands need processing), less what
/// `zmq_poll` repeats on every call: looking each socket's `ZMQ_FD` up, building the arrays, and
/// after a wait, reading the events of sockets whose descriptor did not signal.
public final class Poller {
    private let items: UnsafeMutableBufferPointer<zmq_pollitem_t>
    private let descriptors: UnsafeMutableBufferPointer<pollfd>
    /// The socket items the caller said are idle (`idle(_:)`) since the last `wait`.
    private let idle: UnsafeMutableBufferPointer<Bool>
    private let sockets: [ZMQSocket]

    /// Polls `items`.
    public init(_ items: [PollItem]) throws {
        var sockets: [ZMQSocket] = []
        self.items = .allocate(capacity: items.count)
        descriptors = .allocate(capacity: items.count)
        idle = .allocate(capacity: items.count)
        idle.initialize(repeating: false)
        for (index, item) in items.enumerated() {
            switch item {
            case .socket(let socket):
                sockets.append(socket)
                self.items[index] = zmq_pollitem_t(socket: socket.handle, fd: 0, events: Int16(ZMQ_POLLIN), revents: 0)
            case .socketWritable(let socket):
                sockets.append(socket)
                self.items[index] = zmq_pollitem_t(socket: socket.handle, fd: 0, events: Int16(ZMQ_POLLOUT), revents: 0)
            case .fileDescriptor(let fd):
                self.items[index] = zmq_pollitem_t(socket: nil, fd: fd, events: Int16(ZMQ_POLLIN), revents: 0)
            }
            var fd = self.items[index].fd
            if let socket = self.items[index].socket {
                var size = MemoryLayout<Int32>.size
                if zmq_getsockopt(socket, ZMQ_FD, &fd, &size) != 0 {
                    self.items.deallocate(); descriptors.deallocate(); idle.deallocate()
                    throw ZMQError.last("getsockopt ZMQ_FD")
                }
            }
            // A socket's descriptor signals its commands (readable), whatever it waits for.
            descriptors[index] = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        }
        self.sockets = sockets
    }

    deinit {
        items.deallocate()
        descriptors.deallocate()
        idle.deallocate()
    }

    /// Tells the next `wait` that socket item `index` has nothing waiting: the caller has just
    /// received from it until libzmq answered "nothing waiting" (`EAGAIN`, which processes its
    /// pending commands first), or the last `wait` found it not ready, and it has not been used
    /// since. Its events are then read only if its descriptor signals (a new command), not
    /// before every wait. Only for items that wait for input; forgotten at the end of `wait`.
    public func idle(_ index: Int) {
        precondition(items[index].socket != nil && items[index].events == Int16(ZMQ_POLLIN))
        idle[index] = true
    }

    /// Waits up to `timeoutMilliseconds` (-1: for ever) until an item is ready; retries when a
    /// signal interrupts.
    public func wait(timeoutMilliseconds: Int) throws {
        let deadline = timeoutMilliseconds > 0 ? Self.milliseconds() + timeoutMilliseconds : 0
        defer { idle.update(repeating: false) }
        // The sockets not declared idle are asked first, without a `poll(2)`. When none is ready
        // and the caller waits, the waiting `poll(2)` comes next: it returns at once if a
        // descriptor has signalled (then read as after any wait), so a `poll(2)` without waiting
        // would only find out the same, one system call sooner. When one is ready (or the caller
        // does not wait), the first pass polls without waiting, as ever, so that the plain
        // descriptors and the idle sockets that signalled are reported with it: a socket always
        // ready starves none of them.
        var ready = false
        for index in items.indices where items[index].socket != nil && !idle[index] {
            items[index].revents = try events(index)
            if items[index].revents != 0 { ready = true }
        }
        var firstPass = ready || timeoutMilliseconds == 0
        while true {
            let timeout = firstPass ? 0 : timeoutMilliseconds < 0 ? -1 : max(0, deadline - Self.milliseconds())
            if Glibc.poll(descriptors.baseAddress, nfds_t(descriptors.count), Int32(timeout)) < 0 {
                if errno == EINTR { continue }
                throw ZMQError.last("poll")
            }
            for index in items.indices {
                var revents: Int16 = 0
                if items[index].socket != nil {
                    // Asked just before the first pass: its events stand.
                    if firstPass, !idle[index] { continue }
                    // A socket whose descriptor stayed quiet has had no command since its events
                    // were last read — before the first pass (nothing touches it between passes),
                    // by the first pass, or by the caller's last receive (`idle`): it is still not
                    // ready, and asking libzmq again costs a `getsockopt` and a `poll(2)` of its
                    // mailbox.
                    if descriptors[index].revents == 0 {
                        items[index].revents = 0
                        continue
                    }
                    revents = try events(index)
                } else {
                    let polled = descriptors[index].revents
                    if polled & Int16(POLLIN) != 0 { revents |= Int16(ZMQ_POLLIN) }
                    if polled & Int16(POLLOUT) != 0 { revents |= Int16(ZMQ_POLLOUT) }
                    if polled & Int16(POLLPRI) != 0 { revents |= Int16(ZMQ_POLLPRI) }
                    if polled & ~Int16(POLLIN | POLLOUT | POLLPRI) != 0 { revents |= Int16(ZMQ_POLLERR) }
                }
                items[index].revents = revents
                if revents != 0 { ready = true }
            }
            if ready || timeoutMilliseconds == 0 { return }
            if !firstPass, timeoutMilliseconds > 0, Self.milliseconds() >= deadline { return }
            firstPass = false
        }
    }

    /// The events socket item `index` waits for that libzmq says it has now (`ZMQ_EVENTS`).
    @inline(__always)
    private func events(_ index: Int) throws -> Int16 {
        var events: UInt32 = 0
        var size = MemoryLayout<UInt32>.size
        if zmq_getsockopt(items[index].socket, ZMQ_EVENTS, &events, &size) != 0 { throw ZMQError.last("poll") }
        return Int16(truncatingIfNeeded: events) & items[index].events
    }

    /// Whether item `index` was ready at the last `wait`.
    public func isReady(_ index: Int) -> Bool { items[index].revents & items[index].events != 0 }

    /// The monotonic clock in milliseconds.
    private static func milliseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return now.tv_sec * 1000 + now.tv_nsec / 1_000_000
    }
}
