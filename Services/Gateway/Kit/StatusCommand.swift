import Domain

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

    /// The report as a table whose columns stay aligned whatever their contents (a stale
    /// service's long heartbeat age, a missing one's dashes).
    static func format(_ report: StatusReport, missing: [String]) -> String {
        var rows: [[String]] = [["SERVICE", "VERSION", "PID", "UPTIME", "HEARTBEAT", "STATE", "COUNTERS"]]
        func row(_ beat: Heartbeat, age: Int, state: String) -> [String] {
            let counters = beat.counters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            return [beat.service, beat.version, String(beat.pid), "\(Int(beat.uptimeSeconds))s", "\(age) ms ago", state, counters]
        }
        rows.append(row(report.bus, age: 0, state: "up"))
        for service in report.services.sorted(by: { $0.heartbeat.service < $1.heartbeat.service }) {
            rows.append(row(service.heartbeat, age: service.lastHeartbeatAgeMilliseconds, state: service.stale ? "STALE" : "up"))
        }
        for name in missing.sorted() { rows.append([name, "-", "-", "-", "never", "MISSING", ""]) }
        let widths = (0..<6).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { cells in
            var line = ""
            for (column, cell) in cells.enumerated() {
                line += column < widths.count ? cell.padding(to: widths[column]) + "  " : cell
            }
            return line.trimmingTrailingSpaces()
        }.joined(separator: "\n")
    }
}

private extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}
