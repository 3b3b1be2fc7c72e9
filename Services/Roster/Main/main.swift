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
let status = ServiceMain.run(
    name: MonsterBus.Service.roster,
    extraHelp: "\n  ROSTER_DB              the SQLite database file (default roster.db)"
) { _, log in
    let path = ProcessInfo.processInfo.environment["ROSTER_DB"].flatMap { $0.isEmpty ? nil : $0 } ?? "roster.db"
    do {
        let database = try RosterDatabase(path: path)
        let core = try database.load()
        log.info("database \(path) at revision \(core.revision)")
        return RosterHandler(core: core, database: database, log: log)
    } catch {
        throw ConfigError("the roster database at \(path) (ROSTER_DB) cannot be used: \(error)")
    }
}
exit(status)
