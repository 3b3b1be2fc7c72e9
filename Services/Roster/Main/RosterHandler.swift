import BusKit
import MonsterKit
import RosterCore
import RosterStore

/// Connects `RosterCore` to the bus and to its database: a change is stored before it is
/// published or acknowledged, and a message already applied is acknowledged as a duplicate.
struct RosterHandler: ServiceHandler {
    var core: RosterCore
    let database: RosterDatabase
    let log: Log

    var subscriptions: [String] {
        [MessageType.snapshotRequest, .rosterSelect, .weaponSelected, .colorSelected].map(\.rawValue)
    }

    func accepts(_ type: MessageType) -> Bool {
        [.snapshotRequest, .rosterSelect, .weaponSelected, .colorSelected].contains(type)
    }

    mutating func handle(_ envelope: Envelope) -> Reply {
        let decision = core.decide(device: envelope.device, body: envelope.body)
        guard let change = decision.change else { return Reply(decision.effects) }
        do {
            if try database.hasApplied(envelope.id) { return Reply([], duplicate: true) }
            try database.store(change, messageId: envelope.id)
        } catch {
            log.error("could not store a change: \(error)")
            return Reply([.error("storage", "the change could not be stored: \(error)")])
        }
        core.apply(change)
        return Reply(decision.effects)
    }
}
