import BusKit
import MonsterKit
import Glibc
import RosterService
import RosterStore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// roster: owns the monsters, selections, weapon and colour changes, in SQLite.
var arguments = CommandLine.arguments.dropFirst()
let environment = ProcessInfo.processInfo.environment
var mode: StartMode = environment["ROSTER_RESET"] == "1" ? .reset : .normal
if let index = arguments.firstIndex(of: "--reset") {
    arguments.remove(at: index)
    mode = .reset
}
if let index = arguments.firstIndex(of: "--restore") {
    guard arguments.index(after: index) < arguments.endIndex else {
        Log.standardError("roster: --restore needs the backup file (roster --restore FILE)\n")
        exit(2)
    }
    mode = .restore(arguments[arguments.index(after: index)])
    arguments.removeSubrange(index...arguments.index(after: index))
}

let status = ServiceMain.run(
    name: MonsterBus.Service.roster,
    extraHelp: """

          ROSTER_DB              the SQLite database file (default roster.db); beside it
                                 ROSTER_DB.acknowledged records the last acknowledged position
          ROSTER_RESET           1: start a new, empty database (as --reset)
          DEVICE_IDLE_EXPIRY_SECONDS  forget a device unused this long (default 2592000, 30 days)
        --reset           start a new, empty database on purpose (the current files are kept aside)
        --restore FILE    start on a copy of the backup FILE (gateway roster backup FILE), its id kept
        The roster refuses to start when the database is missing, empty, damaged, older than
        acknowledged or another one (it names the files and what to do).
        """,
    extraUsage: " [--reset | --restore FILE]",
    arguments: arguments
) { _, log in
    let path = environment["ROSTER_DB"].flatMap { $0.isEmpty ? nil : $0 } ?? "roster.db"
    return try RosterHandler.open(path: path, mode: mode, expiry: try DeviceIdleExpiry.fromEnvironment(), log: log)
}
exit(status)
