import BusKit
import MonsterKit
import Glibc
import RosterStore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// roster: owns the monsters, selections, weapon and colour changes, in SQLite.
let environment = ProcessInfo.processInfo.environment
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
    let expiry = try DeviceIdleExpiry.fromEnvironment()
    let (database, position, notes) = try RosterStartup.open(path: path, mode: mode, now: Int(Timestamp.wallClock()))
    for note in notes { log.warn(note) }
    let (core, stored) = try database.load()
    log.info("database \(path) at \(position)")
    // Rows from before the time was recorded (0) count from now.
    let now = Timestamp.wallClock()
    let lastUsed = stored.mapValues { $0 > 0 ? $0 : now }
    return RosterHandler(
        core: core, database: database, marker: AcknowledgedMarker(databasePath: path), position: position,
        activity: DeviceActivity(limit: expiry, lastUsed: lastUsed), log: log)
}
exit(status)
