import Domain
import Glibc
import ProcessSupport
import RosterService
import RosterStore
import Runtime
import ServiceLaunch

// roster: owns the monsters, selections, weapon and colour changes, in SQLite.
let environment = ProcessEnvironment.current
let reset = ProgramOption("--reset", help: "start a new, empty database on purpose (the current files are kept aside)")
let restore = ProgramOption("--restore", value: "FILE", help: "start on a copy of the backup FILE (gateway roster backup FILE), its id kept")

let status = ServiceMain.run(
    name: MonsterBus.Service.roster, options: [reset, restore], environment: EnvironmentVariable.roster,
    notes: """
        The roster refuses to start when the database is missing, empty, damaged, older than
        acknowledged or another one (it names the files and what to do).
        """
) { _, log, options in
    var mode: StartMode = environment["ROSTER_RESET"] == "1" ? .reset : .normal
    for option in options {
        if option.name == reset.names[0] { mode = .reset }
        if option.name == restore.names[0], let file = option.value { mode = .restore(file) }
    }
    let path = environment["ROSTER_DB"].flatMap { $0.isEmpty ? nil : $0 } ?? "roster.db"
    let backups = environment["ROSTER_BACKUP_DIR"].flatMap { $0.isEmpty ? nil : BackupFolder(path: $0) }
    return try RosterHandler.open(path: path, mode: mode, expiry: try DeviceIdleExpiry.fromEnvironment(), backups: backups, log: log)
}
exit(status)
