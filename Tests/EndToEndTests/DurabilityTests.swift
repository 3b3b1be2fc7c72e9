import Domain
import Foundation
import Testing
import Wire
import TestTiers

/// Acknowledged means kept, through the real processes: the roster refuses to start on evidence
/// of loss, naming the files; ids with NUL are refused; a backup taken under load holds every
/// change acknowledged before it and restores with its database id; a reset is noticed by
/// every replica; devices are forgotten on request and when idle.
@Suite(.serialized, .tags(.processes)) final class DurabilityTests {
    /// The roster database's path in `stack`.
    func databasePath(_ stack: Stack) -> String { stack.folder.appendingPathComponent("roster.db").path }

    /// Picks a weapon for `monster` on the iPad through the whole stack; returns the revision.
    @discardableResult
    func changeWeapon(_ stack: Stack, _ monster: String, to weapon: String) throws -> Int? {
        value(try stack.pick(weapon, from: "weapon", for: monster).body("roster.monster.updated"), "revision") as? Int
    }

    /// The roster's snapshot as `gateway --json roster` prints it.
    func snapshot(_ stack: Stack) throws -> [String: Any] {
        try #require(try stack.json("ipad", "roster").body("roster.snapshot"))
    }

    /// Starts roster, expecting it to refuse: returns what it printed, once it has exited non-zero.
    func refusedStart(_ stack: Stack, arguments: [String] = []) throws -> String {
        let roster = try stack.start("roster", arguments: arguments)
        let status = roster.waitForExit(timeout: 20)
        #expect(status == 1, "roster should refuse to start with status 1: \(roster.stderr)")
        // Its standard error may still be on its way through the pipe: wait for the refusal.
        let refusal = roster.waitForLine(timeout: 10) { $0.contains("cannot start") ? String($0) : nil }
        #expect(refusal != nil, "no refusal logged: \(roster.stderr)")
        return refusal ?? roster.stderr
    }

    @Test func aDeletedDatabaseWithItsWALLeftIsRefusedNamingTheFile() throws {
        let stack = try Stack()
        #expect(try changeWeapon(stack, "Dog-Bot", to: "fire") == 1)
        #expect(stack.stop("roster", signal: SIGKILL) != nil)
        let path = databasePath(stack)
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        try FileManager.default.removeItem(atPath: path)
        let said = try refusedStart(stack)
        #expect(said.contains("\(path) is missing"))
        #expect(said.contains("\(path)-wal"))
        #expect(said.contains("roster --restore FILE"))
        #expect(said.contains("roster --reset"))
    }

    @Test func aZeroLengthDatabaseIsRefusedNamingTheFile() throws {
        let stack = try Stack()
        #expect(try changeWeapon(stack, "Dog-Bot", to: "fire") == 1)
        #expect(stack.stop("roster") == 0)
        let path = databasePath(stack)
        try Data().write(to: URL(fileURLWithPath: path))
        let said = try refusedStart(stack)
        #expect(said.contains("\(path) is empty (0 bytes)"))
        #expect(said.contains("\(path).acknowledged"))
    }

    @Test func aWALTruncatedAfterKill9IsRefusedRatherThanReusingARevision() throws {
        let stack = try Stack()
        #expect(try changeWeapon(stack, "Dog-Bot", to: "fire") == 1)
        // A clean stop checkpoints revision 1 into the database file itself.
        #expect(stack.stop("roster") == 0)
        try stack.start("roster")
        try stack.waitUntilAnswering(["roster"])
        #expect(try changeWeapon(stack, "Ice-Bot", to: "smoke") == 2)
        #expect(try changeWeapon(stack, "Cat-Bot", to: "blowgun") == 3)
        #expect(stack.stop("roster", signal: SIGKILL) != nil)
        let wal = databasePath(stack) + "-wal"
        let size = try #require(try FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int)
        #expect(size > 0)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: wal))
        try handle.truncate(atOffset: 0)
        try handle.close()
        let said = try refusedStart(stack)
        #expect(said.contains("older than"))
        #expect(said.contains("revision 3"))
        #expect(said.contains(databasePath(stack) + ".acknowledged"))
    }

    @Test func twoDeviceIdsDifferingAfterANulAreBothRefused() throws {
        let stack = try Stack()
        let client = try TestClient(stack, subscriptions: ["error", "ack"])
        #expect(client.waitForPath(to: Stack.services))
        for (index, device) in ["nul\u{0}A", "nul\u{0}B"].enumerated() {
            // To roster directly and to presentation-policy, with valid message ids.
            for (topic, body) in [("roster.select.request", #"{"monster":"Dog-Bot"}"#), ("device.select", #"{"monster":"Ice-Bot"}"#)] {
                let id = "nul-test-\(index)-\(topic)"
                let json = #"{"v":1,"type":"\#(topic)","id":"\#(id)","correlationId":"\#(id)","service":"test-client","device":"\#(device.replacingOccurrences(of: "\u{0}", with: "\\u0000"))","seq":1,"time":"\#(Timestamp.now())","body":\#(body)}"#
                try client.bus.sendRaw([Array(topic.utf8), Array(json.utf8)])
                let error = client.waitFor { $0.correlationId == id && $0.type == .error }
                guard case .error(let refusal)? = error?.body else { Issue.record("no error for \(topic) with device \(device.debugDescription)"); continue }
                #expect(refusal.code == "bad-shape")
                #expect(refusal.message.contains("field 'device'"))
            }
        }
        // A message id with a NUL is refused too (and not repeated back).
        let json = #"{"v":1,"type":"roster.snapshot.request","id":"m\u0000x","correlationId":"c-nul","service":"test-client","device":"ipad","seq":1,"time":"\#(Timestamp.now())","body":{}}"#
        try client.bus.sendRaw([Array("roster.snapshot.request".utf8), Array(json.utf8)])
        let error = client.waitFor { if case .error(let e) = $0.body { return e.message.contains("field 'id'") } else { return false } }
        #expect(error != nil)
        // Nothing was stored under "nul" (the prefix SQLite would have cut them to).
        #expect(value(try snapshot(stack), "selected") as? String == Catalogue.initialSelection)
        let nul = try stack.json("nul", "roster")
        #expect(value(nul.body("roster.snapshot"), "selected") as? String == Catalogue.initialSelection)
    }

    @Test func aBackupUnderLoadHoldsEveryAcknowledgedChangeAndRestoresWithItsIdentity() throws {
        let stack = try Stack()
        let before = try snapshot(stack)
        let databaseId = try #require(before["databaseId"] as? String)
        let client = try TestClient(stack, subscriptions: ["roster.monster.updated", "ack", "error"])
        #expect(client.waitForPath(to: [MonsterBus.Service.roster]))
        let weapons: [Weapon] = [.fire, .sword]
        var sent: [String: Weapon] = [:]
        var acknowledged: [String: UInt64] = [:]     // message id → revision
        var weaponAt: [UInt64: Weapon] = [:]
        func receive(until count: Int) {
            while acknowledged.count < count, let envelope = client.next(until: Date().addingTimeInterval(20)) {
                if case .monsterUpdated(let update) = envelope.body, sent[envelope.correlationId] != nil {
                    acknowledged[envelope.correlationId] = update.revision
                    weaponAt[update.revision] = update.monster.weapon
                }
            }
        }
        func load(_ indices: Range<Int>) throws {
            for index in indices {
                let message = client.bus.envelope(.weaponSelected(WeaponSelected(weapon: weapons[index % 2])), device: "load")
                sent[message.id] = weapons[index % 2]
                try client.bus.send(message)
            }
        }
        // 600 changes out; once 300 are acknowledged, back up while the rest are being stored.
        try load(0..<600)
        receive(until: 300)
        let acknowledgedBeforeBackup = Set(acknowledged.values)
        #expect(acknowledgedBeforeBackup.count >= 300)
        let copy = stack.folder.appendingPathComponent("backups/backup.db").path
        let backup = try stack.gateway(["--json", "--timeout", "20", "roster", "backup", copy])
        #expect(backup.status == 0, "\(backup.stdout)\(backup.stderr)")
        let answer = try #require(backup.body("roster.backup"))
        let backupRevision = try #require(answer["revision"] as? Int)
        #expect(answer["databaseId"] as? String == databaseId)
        #expect(answer["path"] as? String == copy)
        // The rest of the load, after the backup.
        try load(600..<1000)
        receive(until: 1000)
        #expect(acknowledged.count == 1000)
        #expect(acknowledgedBeforeBackup.allSatisfy { $0 <= UInt64(backupRevision) })
        #expect(backupRevision >= 300 && backupRevision <= 1000)

        // Restore: roster starts on the copy, with its database id, at the backup's revision.
        #expect(stack.stop("roster") == 0)
        let restored = try stack.start("roster", arguments: ["--restore", copy])
        try stack.waitUntilAnswering(["roster"])
        #expect(restored.waitForLine(timeout: 10) { $0.contains("restored \(copy)") ? true : nil } == true)
        let after = try snapshot(stack)
        #expect(after["databaseId"] as? String == databaseId)
        #expect(after["revision"] as? Int == backupRevision)
        let monsters = try #require(after["monsters"] as? [[String: Any]])
        let selected = monsters.first { $0["name"] as? String == Catalogue.initialSelection }
        #expect(selected?["weapon"] as? String == weaponAt[UInt64(backupRevision)]?.name)
        // And it keeps starting on it.
        #expect(stack.stop("roster") == 0)
        try stack.start("roster")
        try stack.waitUntilAnswering(["roster"])
        #expect(try snapshot(stack)["revision"] as? Int == backupRevision)
    }

    @Test func aBackupOutsideTheBackupFolderIsRefusedAndWritesNothing() throws {
        let stack = try Stack()
        let folder = stack.folder.appendingPathComponent("backups").path
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("roster-backup-\(UUID().uuidString).db").path
        func files() -> Set<String> {
            Set(FileManager.default.enumerator(atPath: stack.folder.path)?.allObjects as? [String] ?? [])
        }
        let before = files()
        for requested in [outside, "/etc/cron.d/monster-bus", stack.folder.appendingPathComponent("escape.db").path,
                          folder + "/../escape.db", "relative/escape.db", "/nonexistent-folder/backup.db"] {
            let refused = try stack.gateway(["roster", "backup", requested])
            #expect(refused.status == 1, "\(requested): \(refused.stdout)\(refused.stderr)")
            #expect(refused.stdout.contains("backups are written only in \(folder) (ROSTER_BACKUP_DIR)"), "\(requested): \(refused.stdout)")
        }
        #expect(!FileManager.default.fileExists(atPath: outside))
        #expect(!FileManager.default.fileExists(atPath: "/etc/cron.d/monster-bus"))
        #expect(files() == before)
        // A backup never overwrites a file.
        let existing = folder + "/precious.db"
        try "precious\n".write(toFile: existing, atomically: false, encoding: .utf8)
        let over = try stack.gateway(["roster", "backup", "precious.db"])
        #expect(over.status == 1)
        #expect(over.stdout.contains("exists"))
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "precious\n")
        // A name is a file in the folder.
        let named = try stack.gateway(["roster", "backup", "nightly.db"])
        #expect(named.status == 0, "\(named.stdout)\(named.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder + "/nightly.db"))
    }

    @Test func theBackupFolderIsROSTER_BACKUP_DIRWhenSet() throws {
        let chosen = FileManager.default.temporaryDirectory.appendingPathComponent("roster-backups-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: chosen) }
        let stack = try Stack(environment: ["ROSTER_BACKUP_DIR": chosen])
        let written = try stack.gateway(["roster", "backup", chosen + "/copy.db"])
        #expect(written.status == 0, "\(written.stdout)\(written.stderr)")
        #expect(FileManager.default.fileExists(atPath: chosen + "/copy.db"))
        let beside = try stack.gateway(["roster", "backup", stack.folder.appendingPathComponent("backups/copy.db").path])
        #expect(beside.status == 1)
        #expect(beside.stdout.contains("backups are written only in \(chosen)"))
    }

    @Test func aResetIsNoticedByEveryRunningReplicaWhichResynchronises() throws {
        let stack = try Stack()
        #expect(try changeWeapon(stack, "Dog-Bot", to: "fire") == 1)
        #expect(try changeWeapon(stack, "Dog-Bot", to: "smoke") == 2)
        let oldId = try #require(try snapshot(stack)["databaseId"] as? String)
        // Three replicas, each on its own connection, each current.
        let clients = try (0..<3).map { _ in try TestClient(stack, subscriptions: ["roster."]) }
        var replicas = Array(repeating: RosterReplica(), count: 3)
        for (index, client) in clients.enumerated() {
            #expect(client.waitForPath(to: [MonsterBus.Service.roster]))
            let request = try client.bus.publish(.snapshotRequest(SnapshotRequest()))
            if case .snapshot(let snapshot)? = client.waitFor(timeout: 10, { $0.correlationId == request.id && $0.type == .snapshot })?.body {
                _ = replicas[index].receive(snapshot)
            }
            #expect(replicas[index].isCurrent && replicas[index].revision == 2 && replicas[index].databaseId == oldId)
        }

        // Reset on purpose, and change something.
        #expect(stack.stop("roster") == 0)
        let reset = try stack.start("roster", arguments: ["--reset"])
        try stack.waitUntilAnswering(["roster"])
        #expect(reset.waitForLine(timeout: 10) { $0.contains("new, empty database on purpose") ? true : nil } == true)
        #expect(try changeWeapon(stack, "Ice-Bot", to: "sword") == 1)

        for (index, client) in clients.enumerated() {
            var requests: Set<String> = []
            let deadline = Date().addingTimeInterval(15)
            while !(replicas[index].isCurrent && replicas[index].databaseId != oldId), let envelope = client.next(until: deadline) {
                var need = RosterReplica.Need.nothing
                switch envelope.body {
                case .monsterUpdated(let update): need = replicas[index].receive(update)
                case .snapshot(let snapshot) where requests.contains(envelope.correlationId): need = replicas[index].receive(snapshot)
                default: break
                }
                if need == .snapshot { requests.insert(try client.bus.publish(.snapshotRequest(SnapshotRequest())).id) }
            }
            #expect(replicas[index].resynchronisations == 1)
            #expect(replicas[index].lastResynchronisation == .newDatabase(from: oldId, to: replicas[index].databaseId ?? ""))
            #expect(replicas[index].revision == 1)
            #expect(replicas[index].monsters?.first { $0.name == "Ice-Bot" }?.weapon == .sword)
            #expect(replicas[index].monsters?.first { $0.name == "Dog-Bot" }?.weapon == Catalogue.monster(named: "Dog-Bot")?.weapon)
        }
        // `gateway roster` shows the new state and the new database id.
        let roster = try stack.gateway(["roster"])
        #expect(roster.stdout.contains("roster at revision 1"))
        #expect(!roster.stdout.contains(oldId))
        #expect(roster.stdout.contains(replicas[0].databaseId ?? "?"))
    }

    @Test func forgetDropsTheDeviceInEveryServiceWhichEachAnswers() throws {
        let stack = try Stack()
        #expect(try stack.gateway(["--device", "left", "--profile", "ipad", "select", "Dog-Bot"]).status == 0)
        #expect(try stack.gateway(["--device", "left", "tap", "weapon"]).status == 0)
        let forget = try stack.gateway(["--json", "forget", "left"])
        #expect(forget.status == 0)
        let answers = forget.messages("device.forgotten")
        #expect(Set(answers.compactMap { $0["service"] as? String }) == Set(MonsterBus.Service.all))
        #expect(answers.allSatisfy { value($0, "body.held") as? Bool == true })
        #expect(Set(forget.messages("ack").compactMap { $0["service"] as? String }) == Set(MonsterBus.Service.all))
        // The device is unknown again: it needs a profile, and its selection is the default.
        let describe = try stack.gateway(["--device", "left", "--json", "describe"])
        #expect(describe.status == 1)
        #expect(value(try stack.json("left", "roster").body("roster.snapshot"), "selected") as? String == Catalogue.initialSelection)
    }

    @Test func aDeviceIdleForLongerThanTheExpiryIsForgottenByEveryService() throws {
        let stack = try Stack(environment: ["DEVICE_IDLE_EXPIRY_SECONDS": "3"])
        // Both actions in one session, well within the limit: the device then holds state in all three.
        let session = try stack.gateway(["--device", "idle", "--profile", "ipad", "shell"], stdin: "select Dog-Bot\ntap weapon\n")
        #expect(session.status == 0, "\(session.stdout)\(session.stderr)")
        #expect(session.stdout.contains("input view weapon-picker shown"))
        for service in Stack.services {
            let forgot = stack.processes[service]?.waitForLine(timeout: 15) { $0.contains("forgot 1 device(s)") && $0.contains("idle") ? true : nil }
            #expect(forgot == true, "\(service) did not forget the idle device")
        }
        #expect(try stack.gateway(["--device", "idle", "describe"]).status == 1)
        // Forgotten in roster's memory too, not only in its database: described anew, the
        // device shows the first monster again, not the one it had selected.
        let anew = try stack.gateway(["--device", "idle", "--profile", "ipad", "describe"])
        #expect(anew.status == 0, "\(anew.stdout)\(anew.stderr)")
        #expect(anew.stdout.contains("showing Cat-Bot"), "\(anew.stdout)")
    }

    /// docs/configuration.md: a value that cannot be used stops a service with status 2 and a
    /// line naming the variable — before it makes any file.
    @Test func aBadExpiryOrEtcdEndpointIsAConfigurationErrorAndMakesNoFile() throws {
        let stack = try Stack(services: [])
        stack.extraEnvironment["DEVICE_IDLE_EXPIRY_SECONDS"] = "soon"
        let roster = try stack.start("roster")
        #expect(roster.waitForExit(timeout: 10) == 2)
        #expect(roster.waitForLine(timeout: 10) { $0.contains("DEVICE_IDLE_EXPIRY_SECONDS must be a positive number") ? true : nil } == true)
        stack.extraEnvironment = ["ETCD_ENDPOINTS": "http://127.0.0.1:2379,https://127.0.0.1:2380"]
        let policy = try stack.start("presentation-policy")
        #expect(policy.waitForExit(timeout: 10) == 2)
        #expect(policy.waitForLine(timeout: 10) { $0.contains("ETCD_ENDPOINTS mixes http:// and https://") ? true : nil } == true)
        // No database, marker or backup folder (the folder holds the bus's endpoints and the logs).
        let files = try FileManager.default.contentsOfDirectory(atPath: stack.folder.path)
        #expect(files.allSatisfy { !$0.hasPrefix("roster.db") && $0 != "backups" }, "\(files)")
    }
}
