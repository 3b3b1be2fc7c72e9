/// The body of a message; its case decides the envelope's `type` (and topic). Indirect: a body is
/// one reference, so envelopes, effects and what the runtime sends are copied without copying
/// (and retaining each part of) a presentation or a profile.
public indirect enum Body: Sendable, Equatable {
    // Device actions, from a gateway to presentation-policy.
    case tap(Tap)
    case rotate(Rotate)
    case resize(Resize)
    case select(Select)
    case interaction(Interaction)
    case describe(Describe)
    case forget(Forget)
    case forgotten(Forgotten)
    // From presentation-policy.
    case presented(Presented)
    case hidden(Hidden)
    case dismissed(Dismissed)
    case moved(Moved)
    case interactionChanged(InteractionChanged)
    // Outcomes: a service's "nothing changed", the gateway's verdict.
    case unchanged(Unchanged)
    case outcome(Outcome)
    case inputPassed(InputPassed)
    case mediaAddRequested(MediaAddRequested)
    case colorSelected(ColorSelected)
    case deviceLayout(DeviceLayout)
    case deviceState(DeviceState)
    // To and from input-handling.
    case inputTap(InputTap)
    case inputShown(InputShown)
    case inputHidden(InputHidden)
    case weaponSelected(WeaponSelected)
    case inputState(InputState)
    // To and from roster.
    case snapshotRequest(SnapshotRequest)
    case snapshot(RosterSnapshot)
    case rosterSelect(RosterSelect)
    case selection(RosterSelection)
    case monsterUpdated(MonsterUpdated)
    case backupRequest(BackupRequest)
    case backup(BackupDone)
    // The system.
    case ping(Ping)
    case pong(Pong)
    case heartbeat(Heartbeat)
    case statusRequest(StatusRequest)
    case statusReport(StatusReport)
    case lossReport(LossReport)
    case ack(Ack)
    case error(ErrorBody)

    /// The message type, which is also the topic frame. A switch rather than a look-up of the
    /// payload's type in the declarations: every message reads it several times (topic, dispatch,
    /// ack), and a switch costs no existential box; `EnvelopeCodecTests` checks it agrees with them.
    public var type: MessageType {
        switch self {
        case .tap: .tap
        case .rotate: .rotate
        case .resize: .resize
        case .select: .select
        case .interaction: .interaction
        case .describe: .describe
        case .forget: .forget
        case .forgotten: .forgotten
        case .presented: .presented
        case .hidden: .hidden
        case .dismissed: .dismissed
        case .moved: .moved
        case .interactionChanged: .interactionChanged
        case .unchanged: .unchanged
        case .outcome: .outcome
        case .inputPassed: .inputPassed
        case .mediaAddRequested: .mediaAddRequested
        case .colorSelected: .colorSelected
        case .deviceLayout: .deviceLayout
        case .deviceState: .deviceState
        case .inputTap: .inputTap
        case .inputShown: .inputShown
        case .inputHidden: .inputHidden
        case .weaponSelected: .weaponSelected
        case .inputState: .inputState
        case .snapshotRequest: .snapshotRequest
        case .snapshot: .snapshot
        case .rosterSelect: .rosterSelect
        case .selection: .selection
        case .monsterUpdated: .monsterUpdated
        case .backupRequest: .backupRequest
        case .backup: .backup
        case .ping: .ping
        case .pong: .pong
        case .heartbeat: .heartbeat
        case .statusRequest: .statusRequest
        case .statusReport: .statusReport
        case .lossReport: .lossReport
        case .ack: .ack
        case .error: .error
        }
    }

    /// The payload, whatever its type: what `Envelope` encodes (its decoding is the type's
    /// declaration's, `MessageSpec`). Swift reaches an enum case's payload only through a switch;
    /// this one, exhaustive, is the only one besides `type`.
    public var payload: any Codable & Sendable {
        switch self {
        case .tap(let body): body
        case .rotate(let body): body
        case .resize(let body): body
        case .select(let body): body
        case .interaction(let body): body
        case .describe(let body): body
        case .forget(let body): body
        case .forgotten(let body): body
        case .presented(let body): body
        case .hidden(let body): body
        case .dismissed(let body): body
        case .moved(let body): body
        case .interactionChanged(let body): body
        case .unchanged(let body): body
        case .outcome(let body): body
        case .inputPassed(let body): body
        case .mediaAddRequested(let body): body
        case .colorSelected(let body): body
        case .deviceLayout(let body): body
        case .deviceState(let body): body
        case .inputTap(let body): body
        case .inputShown(let body): body
        case .inputHidden(let body): body
        case .weaponSelected(let body): body
        case .inputState(let body): body
        case .snapshotRequest(let body): body
        case .snapshot(let body): body
        case .rosterSelect(let body): body
        case .selection(let body): body
        case .monsterUpdated(let body): body
        case .backupRequest(let body): body
        case .backup(let body): body
        case .ping(let body): body
        case .pong(let body): body
        case .heartbeat(let body): body
        case .statusRequest(let body): body
        case .statusReport(let body): body
        case .lossReport(let body): body
        case .ack(let body): body
        case .error(let body): body
        }
    }
}
