import MonsterKit

/// `gateway status`: asks the bus what it hears of each service.
enum StatusCommand {
    static func run(session: GatewaySession, deadline: Double) throws -> Int32 {
        let output = session.output
        try session.ensureAnswering([MonsterBus.Service.bus], deadline: deadline)
        let answer = try session.client.request(.statusRequest(StatusRequest()), deadline: deadline) {
            if case .statusReport = $0.body { return true }
            return false
        }
        guard case .statusReport(let report) = answer.body else { return ExitStatus.timeout }
        let missing = MonsterBus.Service.all.filter { name in !report.services.contains { $0.heartbeat.service == name } }
        let stale = report.services.filter(\.stale).map(\.heartbeat.service)
        if output.json {
            output.print(answer)
        } else {
            print(format(report, missing: missing))
        }
        return missing.isEmpty && stale.isEmpty ? ExitStatus.ok : ExitStatus.refused
    }

    /// The report as a table.
    static func format(_ report: StatusReport, missing: [String]) -> String {
        var lines = ["SERVICE              VERSION  PID      UPTIME      HEARTBEAT  STATE   COUNTERS"]
        func row(_ beat: Heartbeat, age: Int, state: String) -> String {
            let counters = beat.counters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            return beat.service.padding(to: 20) + " " + beat.version.padding(to: 8) + " " + String(beat.pid).padding(to: 8) + " "
                + "\(Int(beat.uptimeSeconds))s".padding(to: 11) + " " + "\(age) ms ago".padding(to: 10) + " " + state.padding(to: 7) + " " + counters
        }
        lines.append(row(report.bus, age: 0, state: "up"))
        for service in report.services {
            lines.append(row(service.heartbeat, age: service.lastHeartbeatAgeMilliseconds, state: service.stale ? "STALE" : "up"))
        }
        for name in missing { lines.append(name.padding(to: 20) + " -        -        -           never      MISSING") }
        return lines.joined(separator: "\n")
    }
}
