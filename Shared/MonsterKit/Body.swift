/// The body of a message; its case decides the envelope's `type` (and topic).
public enum Body: Sendable, Equatable {
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

    /// The message type, which is also the topic frame.
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

    /// Encodes the payload alone into `container` under `key`.
    func encode<Key: CodingKey>(into container: inout KeyedEncodingContainer<Key>, forKey key: Key) throws {
        switch self {
        case .tap(let body): try container.encode(body, forKey: key)
        case .rotate(let body): try container.encode(body, forKey: key)
        case .resize(let body): try container.encode(body, forKey: key)
        case .select(let body): try container.encode(body, forKey: key)
        case .interaction(let body): try container.encode(body, forKey: key)
        case .describe(let body): try container.encode(body, forKey: key)
        case .forget(let body): try container.encode(body, forKey: key)
        case .forgotten(let body): try container.encode(body, forKey: key)
        case .presented(let body): try container.encode(body, forKey: key)
        case .hidden(let body): try container.encode(body, forKey: key)
        case .dismissed(let body): try container.encode(body, forKey: key)
        case .moved(let body): try container.encode(body, forKey: key)
        case .interactionChanged(let body): try container.encode(body, forKey: key)
        case .unchanged(let body): try container.encode(body, forKey: key)
        case .outcome(let body): try container.encode(body, forKey: key)
        case .inputPassed(let body): try container.encode(body, forKey: key)
        case .mediaAddRequested(let body): try container.encode(body, forKey: key)
        case .colorSelected(let body): try container.encode(body, forKey: key)
        case .deviceLayout(let body): try container.encode(body, forKey: key)
        case .deviceState(let body): try container.encode(body, forKey: key)
        case .inputTap(let body): try container.encode(body, forKey: key)
        case .inputShown(let body): try container.encode(body, forKey: key)
        case .inputHidden(let body): try container.encode(body, forKey: key)
        case .weaponSelected(let body): try container.encode(body, forKey: key)
        case .inputState(let body): try container.encode(body, forKey: key)
        case .snapshotRequest(let body): try container.encode(body, forKey: key)
        case .snapshot(let body): try container.encode(body, forKey: key)
        case .rosterSelect(let body): try container.encode(body, forKey: key)
        case .selection(let body): try container.encode(body, forKey: key)
        case .monsterUpdated(let body): try container.encode(body, forKey: key)
        case .backupRequest(let body): try container.encode(body, forKey: key)
        case .backup(let body): try container.encode(body, forKey: key)
        case .ping(let body): try container.encode(body, forKey: key)
        case .pong(let body): try container.encode(body, forKey: key)
        case .heartbeat(let body): try container.encode(body, forKey: key)
        case .statusRequest(let body): try container.encode(body, forKey: key)
        case .statusReport(let body): try container.encode(body, forKey: key)
        case .lossReport(let body): try container.encode(body, forKey: key)
        case .ack(let body): try container.encode(body, forKey: key)
        case .error(let body): try container.encode(body, forKey: key)
        }
    }

    /// Decodes the payload of a message of `type` from `container` under `key`.
    static func decode<Key: CodingKey>(
        _ type: MessageType, from container: KeyedDecodingContainer<Key>, forKey key: Key
    ) throws -> Body {
        switch type {
        case .tap: .tap(try container.decode(Tap.self, forKey: key))
        case .rotate: .rotate(try container.decode(Rotate.self, forKey: key))
        case .resize: .resize(try container.decode(Resize.self, forKey: key))
        case .select: .select(try container.decode(Select.self, forKey: key))
        case .interaction: .interaction(try container.decode(Interaction.self, forKey: key))
        case .describe: .describe(try container.decode(Describe.self, forKey: key))
        case .forget: .forget(try container.decode(Forget.self, forKey: key))
        case .forgotten: .forgotten(try container.decode(Forgotten.self, forKey: key))
        case .presented: .presented(try container.decode(Presented.self, forKey: key))
        case .hidden: .hidden(try container.decode(Hidden.self, forKey: key))
        case .dismissed: .dismissed(try container.decode(Dismissed.self, forKey: key))
        case .moved: .moved(try container.decode(Moved.self, forKey: key))
        case .interactionChanged: .interactionChanged(try container.decode(InteractionChanged.self, forKey: key))
        case .unchanged: .unchanged(try container.decode(Unchanged.self, forKey: key))
        case .outcome: .outcome(try container.decode(Outcome.self, forKey: key))
        case .inputPassed: .inputPassed(try container.decode(InputPassed.self, forKey: key))
        case .mediaAddRequested: .mediaAddRequested(try container.decode(MediaAddRequested.self, forKey: key))
        case .colorSelected: .colorSelected(try container.decode(ColorSelected.self, forKey: key))
        case .deviceLayout: .deviceLayout(try container.decode(DeviceLayout.self, forKey: key))
        case .deviceState: .deviceState(try container.decode(DeviceState.self, forKey: key))
        case .inputTap: .inputTap(try container.decode(InputTap.self, forKey: key))
        case .inputShown: .inputShown(try container.decode(InputShown.self, forKey: key))
        case .inputHidden: .inputHidden(try container.decode(InputHidden.self, forKey: key))
        case .weaponSelected: .weaponSelected(try container.decode(WeaponSelected.self, forKey: key))
        case .inputState: .inputState(try container.decode(InputState.self, forKey: key))
        case .snapshotRequest: .snapshotRequest(try container.decode(SnapshotRequest.self, forKey: key))
        case .snapshot: .snapshot(try container.decode(RosterSnapshot.self, forKey: key))
        case .rosterSelect: .rosterSelect(try container.decode(RosterSelect.self, forKey: key))
        case .selection: .selection(try container.decode(RosterSelection.self, forKey: key))
        case .monsterUpdated: .monsterUpdated(try container.decode(MonsterUpdated.self, forKey: key))
        case .backupRequest: .backupRequest(try container.decode(BackupRequest.self, forKey: key))
        case .backup: .backup(try container.decode(BackupDone.self, forKey: key))
        case .ping: .ping(try container.decode(Ping.self, forKey: key))
        case .pong: .pong(try container.decode(Pong.self, forKey: key))
        case .heartbeat: .heartbeat(try container.decode(Heartbeat.self, forKey: key))
        case .statusRequest: .statusRequest(try container.decode(StatusRequest.self, forKey: key))
        case .statusReport: .statusReport(try container.decode(StatusReport.self, forKey: key))
        case .lossReport: .lossReport(try container.decode(LossReport.self, forKey: key))
        case .ack: .ack(try container.decode(Ack.self, forKey: key))
        case .error: .error(try container.decode(ErrorBody.self, forKey: key))
        }
    }
}
