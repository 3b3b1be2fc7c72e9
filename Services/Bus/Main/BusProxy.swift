import BusCore
import Glibc
import ThreadOwnership
import Wire
import ZeroMQ

/// The bus's proxy loop, in place of `zmq_proxy`: on the one thread that owns the XSUB frontend
/// and the XPUB backend, it forwards each message the `BusPolicy` allows for its sender's role
/// (the `User-Id` the ZAP handler gave its connection), hands every refusal to the registry to
/// answer, lets through only the subscriptions the policy accepts (the XPUB is in manual mode),
/// and cuts the connections of keys revoked by SIGHUP.
final class BusProxy {
    private let frontend: ZMQSocket
    private let backend: ZMQSocket
    private let refusals: ZMQSocket
    private let backendEvents: ZMQSocket
    private let reloads: Int32
    private let policy: BusPolicy
    private let identities: ClientIdentities
    private let counters: ProxyCounters
    private let message = Multipart(capacity: BusPolicy.maximumFrames)
    /// The topics the bus wrote lately: a device's next request is keyed with the same array.
    private let topics = ThreadOwned<FrameMemo?>(FrameMemo())
    // The loop's state, read and written on its one thread, on every message.
    /// The connection (file descriptor) each publisher's key last sent from.
    private let publisherKeys = ThreadOwned([Int32: String]())
    /// The connection and `User-Id` of the last message: a run of messages from one connection
    /// looks its key up once.
    private let lastPublisher = ThreadOwned((fd: Int32(-1), userId: UnsafePointer<CChar>?.none))
    /// Subscribers' connections (from the backend's monitor) and the keys seen subscribing.
    private var subscriberDescriptors: Set<Int32> = []
    private var subscriberKeys: Set<String> = []

    /// A loop over `frontend` (XSUB) and `backend` (XPUB, manual), sending refusals on `refusals`
    /// (PUSH, to the registry), reading the backend's connection events from `backendEvents`,
    /// and re-reading the allow-list when `reloads` (a pipe) becomes readable.
    init(
        frontend: ZMQSocket, backend: ZMQSocket, refusals: ZMQSocket, backendEvents: ZMQSocket, reloads: Int32,
        policy: BusPolicy, identities: ClientIdentities, counters: ProxyCounters
    ) {
        self.frontend = frontend; self.backend = backend; self.refusals = refusals
        self.backendEvents = backendEvents; self.reloads = reloads
        self.policy = policy; self.identities = identities; self.counters = counters
    }

    /// Runs until the context is shut down.
    func run() throws {
        // Publishers send everything to the bus; only the backend filters. Subscriptions never
        // travel upstream, so no client's subscription reaches (or grows) a publisher.
        try frontend.send([[1]])
        let poller = try Poller([.socket(frontend), .socket(backend), .fileDescriptor(reloads), .socket(backendEvents)])
        do {
            while true {
                try poller.wait(timeoutMilliseconds: -1)
                let (published, subscribed) = (poller.isReady(0), poller.isReady(1))
                let frontendDrained = published ? try forwardMessages() : true
                let backendDrained = subscribed ? try handleSubscriptions() : !published
                if poller.isReady(2) { reload() }
                if poller.isReady(3) { try trackSubscribers() }
                // What the next wait need not ask libzmq about before it blocks: a socket received
                // from until nothing was waiting, or not ready and not used since. The backend,
                // sent to since it was last read, may have taken in subscriptions as it sent.
                if frontendDrained { poller.idle(0) }
                if backendDrained { poller.idle(1) }
                poller.idle(3)
            }
        } catch let error as ZMQError where error.isTerminated {
            return
        }
    }

    /// Forwards or refuses the publishers' waiting messages (a bounded batch, so subscriptions
    /// and reloads are not kept waiting by a flood); true when none is left waiting.
    private func forwardMessages() throws -> Bool {
        for _ in 0..<512 {
            guard try message.receive(from: frontend) else { return true }
            counters.add(.messagesIn)
            // In plaintext no connection has a `User-Id` (no ZAP handler): not looked up.
            let userId = identities.hasKeys ? message.property("User-Id") : nil
            let client = identities.client(userId: userId)
            if let userId { track(userId: userId, client: client) }
            let (topic, body) = message.topicAndBody()
            // The topic is the bus's to write: the key read from the JSON, whatever the sender wrote.
            switch policy.route(from: client.sender, topic: topic, frames: message.frameCount, json: body, memo: &topics.value) {
            case .refuse(let refusal, let refused):
                refuse(refusal, client: client, topic: topic, refused: refused)
                message.discard()
                continue
            case .forward(let topic):
                if let topic { message.replaceFrame(0, with: topic) }
            }
            // The XPUB drops for a subscriber whose queue is full (no XPUB_NODROP): it never blocks.
            try message.send(to: backend)
            counters.add(.messagesOut)
        }
        return false
    }

    /// Remembers which connection a key sends from, to cut it if the key is revoked.
    private func track(userId: UnsafePointer<CChar>, client: ClientIdentities.Client) {
        let fd = message.sourceDescriptor
        guard fd != lastPublisher.value.fd || userId != lastPublisher.value.userId else { return }
        lastPublisher.value = (fd, userId)
        if fd >= 0 { publisherKeys.value[fd] = String(cString: userId) }
        if client.sender == .revoked, fd >= 0 { disconnect(fd) }
    }

    /// Hands a refusal to the registry, which logs it (rate-limited) and answers with an `error`.
    private func refuse(_ refusal: BusPolicy.Refusal, client: ClientIdentities.Client, topic: UnsafeRawBufferPointer, refused: BusPolicy.Refused) {
        switch refusal {
        case .forbiddenTopic: counters.add(.refusedTopic)
        case .forgedService: counters.add(.refusedService)
        case .revoked: counters.add(.refusedRevoked)
        case .tooManyFrames: counters.add(.refusedFrames)
        }
        let role: String
        switch client.sender {
        case .client(let clientRole): role = clientRole.rawValue
        case .anonymous: role = "anonymous"
        case .revoked: role = "revoked"
        }
        let frames: [[UInt8]] = [
            Array(refusal.code.utf8), Array(client.name.utf8), Array(role.utf8), Array(topic.prefix(80)),
            refused.id, refused.correlationId, refused.device, refused.service, refused.replyTo,
        ]
        if (try? refusals.send(frames, dontWait: true)) != true { counters.add(.refusalsUnanswered) }
    }

    /// Lets through the subscriptions the policy accepts and every unsubscription (a sharded
    /// instance gives up the buckets it no longer owns, so that it stops receiving them; a
    /// leaving subscriber's are removed by libzmq), and drops anything else a subscriber sends up;
    /// true when none is left waiting.
    private func handleSubscriptions() throws -> Bool {
        for _ in 0..<512 {
            guard try message.receive(from: backend) else { return true }
            let bytes = message.bytes(0)
            guard message.frameCount == 1, let kind = bytes.first, kind == 1 || kind == 0 else {
                counters.add(.upstreamDropped)
                message.discard()
                continue
            }
            guard kind == 1 else {
                // Manual mode: removes the subscription of the connection it just came from (one
                // it never had changes nothing).
                try backend.set(.unsubscribe, Array(UnsafeRawBufferPointer(rebasing: bytes.dropFirst())))
                continue
            }
            let userId = message.property("User-Id")
            let client = identities.client(userId: userId)
            if let userId { subscriberKeys.insert(String(cString: userId)) }
            let prefix = UnsafeRawBufferPointer(rebasing: bytes.dropFirst())
            if policy.acceptsSubscription(prefix, from: client.sender) {
                // Manual mode: the subscription applies to the connection it just came from.
                try backend.set(.subscribe, Array(prefix))
                counters.add(.subscriptionsAccepted)
            } else {
                counters.add(.subscriptionsRefused)
            }
        }
        return false
    }

    /// Keeps the set of subscribers' connections up to date.
    private func trackSubscribers() throws {
        while let frames = try backendEvents.receive(dontWait: true) {
            guard let event = MonitorEvent(frames: frames) else { continue }
            let fd = Int32(bitPattern: event.value)
            if event.is(.accepted) { subscriberDescriptors.insert(fd) } else { subscriberDescriptors.remove(fd) }
        }
    }

    /// After SIGHUP: re-reads the allow-list and cuts every connection of a key no longer on it.
    /// A publisher's connection is known by its messages; a subscriber's is not (libzmq does not
    /// tell which connection a subscription came from), so if a revoked key has subscribed,
    /// every subscriber is disconnected and the admitted ones reconnect by themselves.
    private func reload() {
        var byte: UInt8 = 0
        while read(reloads, &byte, 1) == 1 {}
        let removed = identities.reload()
        lastPublisher.value = (-1, nil)
        guard !removed.isEmpty else { return }
        for (fd, key) in publisherKeys.value where removed.contains(key) {
            disconnect(fd)
            publisherKeys.value[fd] = nil
        }
        if !subscriberKeys.isDisjoint(with: removed) {
            for fd in subscriberDescriptors { disconnect(fd) }
            subscriberKeys.subtract(removed)
        }
    }

    /// Ends the connection on `fd`: libzmq sees it closed and drops it; the client's reconnection
    /// then goes through the ZAP handler again.
    private func disconnect(_ fd: Int32) {
        if shutdown(fd, Int32(SHUT_RDWR)) == 0 { counters.add(.revokedDisconnects) }
    }
}
