import Domain

/// The roster's decisions: the six monsters, their weapons and name colours, and which monster
/// each device shows. `decide` is pure; `apply` takes a decided change once it is stored.
public struct RosterCore: Sendable {
    /// The monsters in roster order.
    public private(set) var monsters: [Monster]
    /// The revision of the last change (0: none yet).
    public private(set) var revision: UInt64
    /// The selected monster per device; devices not in it show the first monster.
    public private(set) var selections: [String: String]
    /// The identity of the database this roster is stored in, carried in every `roster.*` body.
    public let databaseId: String

    /// A roster in the given state (by default, the catalogue with nothing changed).
    public init(
        monsters: [Monster] = Catalogue.monsters, revision: UInt64 = 0, selections: [String: String] = [:], databaseId: String = ""
    ) {
        self.monsters = monsters; self.revision = revision; self.selections = selections; self.databaseId = databaseId
    }

    /// The monster `device` shows.
    public func selected(on device: String) -> Monster {
        let name = selections[device] ?? Catalogue.initialSelection
        return monsters.first { $0.name == name } ?? monsters[0]
    }

    /// The whole roster, as the Clone pattern's snapshot, with `device`'s selection.
    public func snapshot(for device: String?) -> RosterSnapshot {
        RosterSnapshot(revision: revision, monsters: monsters, selected: device.map { selected(on: $0).name }, databaseId: databaseId)
    }

    /// What to do about an action for `device`.
    public func decide(device: String?, action: RosterAction) -> RosterDecision {
        switch action {
        case .snapshotRequest, .describe:
            return RosterDecision([.publish(.snapshot(snapshot(for: device)))])
        case .rosterSelect(let select):
            guard let device else { return RosterDecision([.error(.missingDevice, "a selection needs a device")]) }
            guard let monster = monsters.first(where: { $0.name.lowercased() == select.monster.lowercased() }) else {
                return RosterDecision([.error(
                    .unknownMonster, "no monster is named '\(select.monster)'; the roster has \(monsters.map(\.name).joined(separator: ", "))")])
            }
            return RosterDecision(
                [.publish(.selection(RosterSelection(monster: monster, databaseId: databaseId)))],
                change: .selection(device: device, monster: monster.name))
        case .weaponSelected(let picked):
            guard let device else { return RosterDecision([.error(.missingDevice, "a weapon change needs a device")]) }
            let monster = selected(on: device)
            guard monster.weapon != picked.weapon else { return RosterDecision([]) }
            return update(monster.with(weapon: picked.weapon), change: "weapon")
        case .colorSelected(let picked):
            guard let device else { return RosterDecision([.error(.missingDevice, "a colour change needs a device")]) }
            let monster = selected(on: device)
            guard monster.color != picked.color else { return RosterDecision([]) }
            return update(monster.with(color: picked.color), change: "color")
        case .forget:
            guard let device else { return RosterDecision([.error(.missingDevice, "forgetting needs a device")]) }
            return RosterDecision(
                [.publish(.forgotten(Forgotten(service: MonsterBus.Service.roster, held: selections[device] != nil)))],
                change: .forget(device: device))
        }
    }

    /// Takes a change decided by `decide` (and stored).
    public mutating func apply(_ change: RosterChange) {
        switch change {
        case .monster(let monster, let revision):
            if let index = monsters.firstIndex(where: { $0.name == monster.name }) { monsters[index] = monster }
            self.revision = revision
        case .selection(let device, let monster):
            selections[device] = monster
        case .forget(let device):
            selections[device] = nil
        }
    }

    private func update(_ monster: Monster, change: String) -> RosterDecision {
        let next = revision + 1
        return RosterDecision(
            [.publish(.monsterUpdated(MonsterUpdated(revision: next, monster: monster, change: change, databaseId: databaseId)))],
            change: .monster(monster, revision: next))
    }
}
