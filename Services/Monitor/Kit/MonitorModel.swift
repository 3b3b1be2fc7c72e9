import Domain
import Wire

/// A heartbeat and when the monitor heard it (monotonic seconds).
public struct HeardHeartbeat: Sendable, Equatable {
    /// The heartbeat as published.
    public var heartbeat: Heartbeat
    /// When it arrived, or (from the bus's `sys.status`) when it must have arrived.
    public var at: Double
}

/// Everything the monitor shows, rebuilt from what the services publish: the decision core of
/// the monitor (messages in, requests out; no sockets, no clocks — times are passed in).
///
/// Devices are learnt from the messages that name them: the first message naming a device
/// makes the monitor ask presentation-policy for it with a `device.describe` (no profile, so it
/// never creates a device), whose answers (`layout.state`, `input.state`, `roster.snapshot`)
/// give each service's part; later messages (`presentation.*`, `layout.changed`, `input.shown`,
/// …) are applied to those parts. Each service publishes in order on one socket, so a change a
/// service published before answering is already in its answer, and one published after
/// arrives after it. When a service restarts (a new pid in its heartbeat), when messages from
/// it were missed (a gap in its `seq`), or when the monitor itself dropped messages, every
/// device is described again.
public struct MonitorModel: Sendable {
    /// What the monitor must publish.
    public enum Request: Sendable, Equatable {
        /// `sys.ping`, until the monitor hears its own (the path through the bus is live).
        case ping
        /// `sys.status.request` to the bus (services heard before the monitor started).
        case status
        /// `roster.snapshot.request` (the roster, at start and after a gap in its revisions).
        case rosterSnapshot
        /// `device.describe` for a device, without a profile.
        case describe(String)
    }

    /// The monitor's own name on the bus (its messages' `service`, its certificate).
    public static let name = "monitor"
    /// Describes sent at once, at most; the others wait their turn.
    public static let maxDescribesInFlight = 16
    /// Devices waiting to be described, at most (a flood of unknown ids is refused beyond it).
    public static let maxQueuedDescribes = 4096
    /// Unknown device ids remembered for their page, at most.
    public static let maxMissing = 256

    /// Every device known, by id.
    public private(set) var devices: [String: DeviceView] = [:]
    /// Devices presentation-policy said it does not know (most recent last).
    public private(set) var missing: [MissingDevice] = []
    /// The roster, kept with the Clone pattern.
    public private(set) var roster = RosterReplica()
    /// The services' last heartbeats (the bus's own is `bus`).
    public private(set) var services: [String: HeardHeartbeat] = [:]
    /// The actions seen and what they caused.
    public private(set) var timeline = ActionTimeline()
    /// Round trips of completed actions, by action type.
    public private(set) var latencies: [String: LatencyHistogram] = [:]
    /// Completed actions by type and outcome (`ok`, `refused`, `expired`).
    public private(set) var outcomes: [String: [String: UInt64]] = [:]
    /// Messages taken in, and those that could not be read.
    public private(set) var received: UInt64 = 0
    /// Times every device was described again (restart, gap, or the monitor's own drops).
    public private(set) var resyncs: UInt64 = 0
    /// One more at every change of the devices' set or of any device.
    public private(set) var devicesVersion: UInt64 = 0
    /// One more at every heartbeat or status taken in.
    public private(set) var healthVersion: UInt64 = 0
    /// One more at every change a page's stream would send at once (a device, the timeline);
    /// the health table is sent on its own clock, once a second.
    public var shownVersion: UInt64 { devicesVersion &+ timeline.version }
    /// True once the monitor has heard its own ping back.
    public private(set) var isReady = false

    private var ownRequests: [String: Request] = [:]
    private var describeQueue: [String] = []
    private var describesInFlight: [String: Double] = [:]
    private var lastSeq: [String: (prefix: Substring, seq: UInt64)] = [:]

    /// A monitor that knows nothing yet.
    public init() {}

    // MARK: Input

    /// What to send first: pings until the monitor hears one back.
    public func startRequests() -> [Request] { isReady ? [] : [.ping] }

    /// Records that `request` went out with envelope id `id` at `now`.
    public mutating func sent(_ request: Request, id: String, at now: Double) {
        ownRequests[id] = request
        if case .describe(let device) = request { describesInFlight[device] = now }
        if ownRequests.count > 10_000 { ownRequests.removeAll() }
    }

    /// Takes in one message seen at `now` (monotonic seconds); returns what to publish.
    public mutating func receive(_ envelope: Envelope, at now: Double) -> [Request] {
        received += 1
        var requests: [Request] = []
        let own = ownRequests[envelope.correlationId]
        if envelope.service == Self.name { return [] }
        // The answers to the monitor's own requests are not actions anyone follows.
        if own == nil, let record = timeline.observe(envelope, at: now) { account(record) }
        if checkSequence(envelope) { resyncAll(&requests) }
        if let device = envelope.device, devices[device] == nil, own == nil, learns(from: envelope) {
            devices[device] = DeviceView()
            devicesVersion += 1
            enqueueDescribe(device)
        }
        switch envelope.body {
        case .pong:
            if case .ping = own, !isReady {
                isReady = true
                requests += [.status, .rosterSnapshot]
            }
        case .heartbeat(let beat):
            let previous = services[beat.service]
            services[beat.service] = HeardHeartbeat(heartbeat: beat, at: now)
            healthVersion += 1
            if let previous, previous.heartbeat.pid != beat.pid, MonsterBus.Service.all.contains(beat.service) {
                resyncAll(&requests)
            }
        case .statusReport(let report):
            guard case .status = own else { break }
            for status in report.services where services[status.heartbeat.service] == nil {
                services[status.heartbeat.service] = HeardHeartbeat(
                    heartbeat: status.heartbeat, at: now - Double(status.lastHeartbeatAgeMilliseconds) / 1000)
            }
            if services[MonsterBus.Service.bus] == nil { services[MonsterBus.Service.bus] = HeardHeartbeat(heartbeat: report.bus, at: now) }
            healthVersion += 1
        case .deviceState(let state):
            if let device = envelope.device {
                if case .describe = own { finishDescribe(device) }
                update(device, creating: true) { $0.state = state }
            }
        case .error(let error):
            if case .describe(let device) = own {
                finishDescribe(device)
                if error.code == RefusalCode.unknownDevice.rawValue { forget(device, message: error.message) }
            }
        case .inputState(let input):
            update(envelope.device) { $0.input = input }
        case .snapshot(let snapshot):
            let before = roster.monsters
            if roster.receive(snapshot) == .snapshot { requests.append(.rosterSnapshot) }
            if before != roster.monsters { touchAll() }
            if snapshot.selected != nil { update(envelope.device) { $0.selected = snapshot.selected } }
        case .monsterUpdated(let update):
            if roster.receive(update) == .snapshot { requests.append(.rosterSnapshot) }
            touchAll()
        case .selection(let selection):
            update(envelope.device) { $0.selected = selection.monster.name }
        case .presented(let presented):
            update(envelope.device) {
                $0.state?.presentation = presented.presentation
                $0.state?.popoverArrowDirection = presented.presentation.style == .popover ? presented.presentation.arrowDirection : .unknown
            }
        case .hidden, .dismissed:
            update(envelope.device) {
                $0.state?.presentation = nil
                $0.state?.popoverArrowDirection = .unknown
            }
        case .deviceLayout(let layout):
            update(envelope.device) { $0.state?.layout = layout }
        case .inputShown(let shown):
            update(envelope.device) {
                $0.input?.input = shown.input
                $0.input?.firstResponder = shown.input.responder
                if shown.input.view == "weapon-picker" { $0.input?.weaponPickerCreated = true }
            }
        case .inputHidden:
            update(envelope.device) {
                $0.input?.input = nil
                $0.input?.firstResponder = nil
            }
        default:
            break
        }
        return requests + nextDescribes()
    }

    /// Time passing: gives up actions and describes that went unanswered; returns what to publish.
    public mutating func tick(now: Double) -> [Request] {
        for record in timeline.expire(now: now, after: 30) { account(record) }
        for (device, since) in describesInFlight where now - since > 5 {
            finishDescribe(device)
        }
        if !isReady { return [.ping] }
        return nextDescribes()
    }

    /// Asks presentation-policy about `device` (a page was requested for it); false when too
    /// many are already waiting.
    public mutating func probe(_ device: String) -> Bool {
        guard devices[device] == nil else { return true }
        if describesInFlight[device] != nil || describeQueue.contains(device) { return true }
        guard describeQueue.count < Self.maxQueuedDescribes else { return false }
        missing.removeAll { $0.device == device }
        describeQueue.append(device)
        return true
    }

    /// The monitor dropped messages (it could not keep up): everything is described again.
    public mutating func droppedMessages() -> [Request] {
        var requests: [Request] = []
        resyncAll(&requests)
        return requests + nextDescribes()
    }

    /// What presentation-policy said of `device` when it did not know it, if it did.
    public func missingDevice(_ device: String) -> MissingDevice? { missing.last { $0.device == device } }

    /// Whether an answer about `device` is still awaited.
    public func isDescribing(_ device: String) -> Bool {
        describesInFlight[device] != nil || describeQueue.contains(device)
    }

    /// The roster as the detail pane of `device` needs it.
    public func rosterSnapshot(for view: DeviceView) -> RosterSnapshot? {
        guard let monsters = roster.monsters else { return nil }
        return RosterSnapshot(revision: roster.revision, monsters: monsters, selected: view.selected)
    }

    // MARK: Helpers

    /// Whether a message naming an unknown device should make the monitor learn it: not the
    /// answer to someone's request for a device that does not exist.
    private func learns(from envelope: Envelope) -> Bool {
        switch envelope.body {
        case .error, .ack, .pong, .statusReport: return false
        default: return true
        }
    }

    private mutating func account(_ record: ActionRecord) {
        let type = record.action.type.rawValue
        let outcome = record.expired ? "expired" : record.tracker.errors.isEmpty ? "ok" : "refused"
        outcomes[type, default: [:]][outcome, default: 0] += 1
        if let roundTrip = record.roundTrip { latencies[type, default: LatencyHistogram()].observe(roundTrip) }
    }

    /// Checks that `envelope` follows the previous message of the same sender; true when a
    /// service's messages were missed (the same process, a gap in `seq`).
    private mutating func checkSequence(_ envelope: Envelope) -> Bool {
        guard MonsterBus.Service.all.contains(envelope.service), let dash = envelope.id.lastIndex(of: "-") else { return false }
        let prefix = envelope.id[..<dash]
        defer { lastSeq[envelope.service] = (prefix, envelope.seq) }
        guard let last = lastSeq[envelope.service], last.prefix == prefix else { return false }
        return envelope.seq > last.seq + 1
    }

    private mutating func resyncAll(_ requests: inout [Request]) {
        resyncs += 1
        for device in devices.keys.sorted() { enqueueDescribe(device) }
        requests.append(.rosterSnapshot)
    }

    private mutating func enqueueDescribe(_ device: String) {
        guard describesInFlight[device] == nil, !describeQueue.contains(device), describeQueue.count < Self.maxQueuedDescribes else { return }
        describeQueue.append(device)
    }

    private mutating func nextDescribes() -> [Request] {
        guard isReady else { return [] }
        var requests: [Request] = []
        while describesInFlight.count + requests.count < Self.maxDescribesInFlight, !describeQueue.isEmpty {
            requests.append(.describe(describeQueue.removeFirst()))
        }
        return requests
    }

    private mutating func finishDescribe(_ device: String) {
        describesInFlight.removeValue(forKey: device)
    }

    private mutating func forget(_ device: String, message: String) {
        if devices.removeValue(forKey: device) != nil { devicesVersion += 1 }
        missing.removeAll { $0.device == device }
        missing.append(MissingDevice(device: device, message: message))
        if missing.count > Self.maxMissing { missing.removeFirst(missing.count - Self.maxMissing) }
    }

    private mutating func update(_ device: String?, creating: Bool = false, _ change: (inout DeviceView) -> Void) {
        guard let device else { return }
        guard var view = devices[device] ?? (creating ? DeviceView() : nil) else { return }
        let before = view
        change(&view)
        guard view != before || devices[device] == nil else { return }
        view.version += 1
        devices[device] = view
        missing.removeAll { $0.device == device }
        devicesVersion += 1
    }

    private mutating func touchAll() {
        for device in devices.keys { devices[device]?.version += 1 }
        devicesVersion += 1
    }
}
