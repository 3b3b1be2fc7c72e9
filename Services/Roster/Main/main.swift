import Domain
import Glibc
import ProcessSupport
import RosterEtcd
import RosterService
import RosterStore
import Runtime
import ServiceLaunch

// roster: owns the monsters, selections, weapon and colour changes, in SQLite on one machine,
// or in etcd with ETCD_ENDPOINTS (one writer among its instances: docs/scaling.md).
let environment = ProcessEnvironment.current
let reset = ProgramOption("--reset", help: "start a new, empty database on purpose (the current files are kept aside)")
let restore = ProgramOption("--restore", value: "FILE", help: "start on a copy of the backup FILE (gateway roster backup FILE), its id kept")
let variables = EnvironmentVariable.roster + EnvironmentVariable.sharding
let notes = """
    The roster refuses to start when the database is missing, empty, damaged, older than
    acknowledged or another one (it names the files and what to do). With ETCD_ENDPOINTS its data
    is in etcd instead: one instance writes, the others take over when its lease expires.
    """

let status: Int32
if let (shard, etcd) = ServiceMain.sharding(name: MonsterBus.Service.roster) {
    status = ServiceMain.run(name: MonsterBus.Service.roster, options: [reset, restore], environment: variables, notes: notes) { _, log, options in
        if let option = options.first?.name ?? (environment["ROSTER_RESET"] == "1" ? "ROSTER_RESET=1" : nil) {
            throw ConfigError("\(option) is for the roster's SQLite database; with ETCD_ENDPOINTS its data is in etcd (docs/durability.md)")
        }
        return try EtcdRosterHandler.start(config: shard, client: etcd, expiry: try DeviceIdleExpiry.fromEnvironment(), log: log)
    }
} else {
    status = ServiceMain.run(name: MonsterBus.Service.roster, options: [reset, restore], environment: variables, notes: notes) { _, log, options in
        var mode: StartMode = environment["ROSTER_RESET"] == "1" ? .reset : .normal
        for option in options {
            if option.name == reset.names[0] { mode = .reset }
            if option.name == restore.names[0], let file = option.value { mode = .restore(file) }
        }
        let path = environment["ROSTER_DB"].flatMap { $0.isEmpty ? nil : $0 } ?? "roster.db"
        let backups = environment["ROSTER_BACKUP_DIR"].flatMap { $0.isEmpty ? nil : BackupFolder(path: $0) }
        return try RosterHandler.open(path: path, mode: mode, expiry: try DeviceIdleExpiry.fromEnvironment(), backups: backups, log: log)
    }
}
exit(status)
