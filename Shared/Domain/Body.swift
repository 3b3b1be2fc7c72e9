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
    // Between the instances of a sharded service.
    case replica(Replica)

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
        case .replica: .replica
        }
    }

    /// The payload, whatever its type (for tools that walk any message's fields, such as the
    /// contract's schema recorder).
    public var payload: any FieldSet {
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
        case .replica(let body): body
        }
    }

    /// Writes the payload with `writer` (a switch, so that each payload's writing is its own
    /// type's, specialised, rather than one through `payload`'s existential).
    @inlinable
    public func write<Writer: ValueWriter>(to writer: inout Writer) throws(Writer.Failure) {
        switch self {
        case .tap(let body): try writer.writeObject(body)
        case .rotate(let body): try writer.writeObject(body)
        case .resize(let body): try writer.writeObject(body)
        case .select(let body): try writer.writeObject(body)
        case .interaction(let body): try writer.writeObject(body)
        case .describe(let body): try writer.writeObject(body)
        case .forget(let body): try writer.writeObject(body)
        case .forgotten(let body): try writer.writeObject(body)
        case .presented(let body): try writer.writeObject(body)
        case .hidden(let body): try writer.writeObject(body)
        case .dismissed(let body): try writer.writeObject(body)
        case .moved(let body): try writer.writeObject(body)
        case .interactionChanged(let body): try writer.writeObject(body)
        case .unchanged(let body): try writer.writeObject(body)
        case .outcome(let body): try writer.writeObject(body)
        case .inputPassed(let body): try writer.writeObject(body)
        case .mediaAddRequested(let body): try writer.writeObject(body)
        case .colorSelected(let body): try writer.writeObject(body)
        case .deviceLayout(let body): try writer.writeObject(body)
        case .deviceState(let body): try writer.writeObject(body)
        case .inputTap(let body): try writer.writeObject(body)
        case .inputShown(let body): try writer.writeObject(body)
        case .inputHidden(let body): try writer.writeObject(body)
        case .weaponSelected(let body): try writer.writeObject(body)
        case .inputState(let body): try writer.writeObject(body)
        case .snapshotRequest(let body): try writer.writeObject(body)
        case .snapshot(let body): try writer.writeObject(body)
        case .rosterSelect(let body): try writer.writeObject(body)
        case .selection(let body): try writer.writeObject(body)
        case .monsterUpdated(let body): try writer.writeObject(body)
        case .backupRequest(let body): try writer.writeObject(body)
        case .backup(let body): try writer.writeObject(body)
        case .ping(let body): try writer.writeObject(body)
        case .pong(let body): try writer.writeObject(body)
        case .heartbeat(let body): try writer.writeObject(body)
        case .statusRequest(let body): try writer.writeObject(body)
        case .statusReport(let body): try writer.writeObject(body)
        case .lossReport(let body): try writer.writeObject(body)
        case .ack(let body): try writer.writeObject(body)
        case .error(let body): try writer.writeObject(body)
        case .replica(let body): try writer.writeObject(body)
        }
    }

    /// Reads the payload of a message of `type` with `reader`.
    @inlinable
    public static func read<Reader: ValueReader>(_ type: MessageType, from reader: inout Reader) throws(Reader.Failure) -> Body {
        switch type {
        case .tap: .tap(try reader.readObject(Tap.self))
        case .rotate: .rotate(try reader.readObject(Rotate.self))
        case .resize: .resize(try reader.readObject(Resize.self))
        case .select: .select(try reader.readObject(Select.self))
        case .interaction: .interaction(try reader.readObject(Interaction.self))
        case .describe: .describe(try reader.readObject(Describe.self))
        case .forget: .forget(try reader.readObject(Forget.self))
        case .forgotten: .forgotten(try reader.readObject(Forgotten.self))
        case .presented: .presented(try reader.readObject(Presented.self))
        case .hidden: .hidden(try reader.readObject(Hidden.self))
        case .dismissed: .dismissed(try reader.readObject(Dismissed.self))
        case .moved: .moved(try reader.readObject(Moved.self))
        case .interactionChanged: .interactionChanged(try reader.readObject(InteractionChanged.self))
        case .unchanged: .unchanged(try reader.readObject(Unchanged.self))
        case .outcome: .outcome(try reader.readObject(Outcome.self))
        case .inputPassed: .inputPassed(try reader.readObject(InputPassed.self))
        case .mediaAddRequested: .mediaAddRequested(try reader.readObject(MediaAddRequested.self))
        case .colorSelected: .colorSelected(try reader.readObject(ColorSelected.self))
        case .deviceLayout: .deviceLayout(try reader.readObject(DeviceLayout.self))
        case .deviceState: .deviceState(try reader.readObject(DeviceState.self))
        case .inputTap: .inputTap(try reader.readObject(InputTap.self))
        case .inputShown: .inputShown(try reader.readObject(InputShown.self))
        case .inputHidden: .inputHidden(try reader.readObject(InputHidden.self))
        case .weaponSelected: .weaponSelected(try reader.readObject(WeaponSelected.self))
        case .inputState: .inputState(try reader.readObject(InputState.self))
        case .snapshotRequest: .snapshotRequest(try reader.readObject(SnapshotRequest.self))
        case .snapshot: .snapshot(try reader.readObject(RosterSnapshot.self))
        case .rosterSelect: .rosterSelect(try reader.readObject(RosterSelect.self))
        case .selection: .selection(try reader.readObject(RosterSelection.self))
        case .monsterUpdated: .monsterUpdated(try reader.readObject(MonsterUpdated.self))
        case .backupRequest: .backupRequest(try reader.readObject(BackupRequest.self))
        case .backup: .backup(try reader.readObject(BackupDone.self))
        case .ping: .ping(try reader.readObject(Ping.self))
        case .pong: .pong(try reader.readObject(Pong.self))
        case .heartbeat: .heartbeat(try reader.readObject(Heartbeat.self))
        case .statusRequest: .statusRequest(try reader.readObject(StatusRequest.self))
        case .statusReport: .statusReport(try reader.readObject(StatusReport.self))
        case .lossReport: .lossReport(try reader.readObject(LossReport.self))
        case .ack: .ack(try reader.readObject(Ack.self))
        case .error: .error(try reader.readObject(ErrorBody.self))
        case .replica: .replica(try reader.readObject(Replica.self))
        }
    }
}
