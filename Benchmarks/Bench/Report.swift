// The readable table and the final JSON line.

import Domain
import Glibc
import Wire
import ZeroMQ

/// The single-number figures of the JSON line, in its order; each case's raw value is its key
/// (callgrind's JSON uses the same keys for its three).
enum Figure: String, CaseIterable {
    case rttP50Ratio = "rtt_p50_ratio"
    case rttP99Ratio = "rtt_p99_ratio"
    /// Product actions/s against the raw echo answering with two messages (round trips/s).
    case throughputVsTwoAnswerEcho = "throughput_ratio_vs_two_answer_echo"
    /// From callgrind, when it ran (else `null`).
    case instructionsRatio = "instructions_ratio_vs_raw"
    case policyInstructions = "policy_instructions_per_action"
    case peerInstructions = "peer_instructions_per_action"
    /// p50 with 8 product clients at once (or the most measured) against the p50 of as many raw
    /// clients of the echo at once, in the same run.
    case p50Ratio8Clients = "p50_ratio_8_clients"
    /// What bounds `rtt_p50_ratio`: the raw echo answering in the product's shape (two
    /// messages, the decision's and the ack's sizes, timed to the first), p50 against raw.
    case twoAnswerEchoP50Ratio = "two_answer_echo_p50_ratio"
    /// What bounds `p50_ratio_8_clients`: as many raw clients at once answered in the product's
    /// shape, against as many answered with one message.
    case twoAnswerEchoP50Ratio8Clients = "two_answer_echo_p50_ratio_8_clients"
    /// What 8 clients at once cost libzmq alone: the p50 of 8 raw clients against one's (the
    /// latency rows'). Times `p50_ratio_8_clients`, it gives the product's 8 clients against
    /// one raw client.
    case raw8ClientsP50VersusOne = "raw_p50_ratio_8_clients_vs_1"
    /// The Python peer's p50 against raw.
    case peerP50Ratio = "peer_rtt_p50_ratio"
    case throughputRatio = "throughput_ratio"
    case scaleRatio = "scale_ratio_largest_vs_10"
    case maxIdleRSS = "max_rss_mb"
    /// presentation-policy's resident bytes per device holding state, from the RSS at the
    /// smallest and the largest scale (each device idle once its actions are done).
    case bytesPerIdleDevice = "bytes_per_idle_device"
    /// Actions/s of 1 sharded instance (and of 3 together) ÷ one unsharded instance's, in the
    /// sharded row (etcd on three members on disk, the same devices and window).
    case sharded1Ratio = "sharded_1_ratio"
    case sharded3Ratio = "sharded_3_ratio"
    /// What bounds `sharded_3_ratio`: libzmq alone in the same shapes, three raw echoes answering
    /// as sharded instances do ÷ one answering as the unsharded instance does.
    case sharded3RawRatio = "sharded_3_raw_ratio"
    /// From callgrind, when it ran: instructions per action over every process (client, bus,
    /// owner and standby) with two sharded instances ÷ with one unsharded instance.
    case shardedInstructionsRatio = "sharded_instructions_ratio"

    /// Digits after the point in the JSON line.
    var decimals: Int {
        switch self {
        case .policyInstructions, .peerInstructions, .bytesPerIdleDevice: 0
        case .maxIdleRSS: 1
        case .rttP50Ratio, .rttP99Ratio, .throughputVsTwoAnswerEcho, .instructionsRatio, .p50Ratio8Clients, .twoAnswerEchoP50Ratio,
             .twoAnswerEchoP50Ratio8Clients, .raw8ClientsP50VersusOne, .peerP50Ratio, .throughputRatio, .scaleRatio,
             .sharded1Ratio, .sharded3Ratio, .sharded3RawRatio, .shardedInstructionsRatio: 3
        }
    }

    /// The figure as measured in `m`; nil when it was not (callgrind's, when it did not run).
    func value(in m: Measurements) -> Double? {
        func ratio(_ value: Double, to base: Double) -> Double { base > 0 ? value / base : 0 }
        let raw = LatencySummary(m.rawLatency)
        /// The p50 of the run with the most clients at once in `runs`.
        func mostClientsP50(_ runs: [Int: ConcurrentClients.Run]) -> Double {
            runs.keys.max().flatMap { runs[$0] }.map { LatencySummary($0.latencies).p50 } ?? 0
        }
        let productRate = median((m.sustained[m.throughputScale] ?? []).map(\.rate))
        switch self {
        case .rttP50Ratio: return ratio(LatencySummary(m.productLatency).p50, to: raw.p50)
        case .rttP99Ratio: return ratio(LatencySummary(m.productLatency).p99, to: raw.p99)
        case .throughputVsTwoAnswerEcho: return ratio(productRate, to: median(m.rawShapedEcho.map(\.rate)))
        case .instructionsRatio, .policyInstructions, .peerInstructions, .shardedInstructionsRatio:
            return m.callgrind.flatMap { jsonNumber(rawValue, in: $0.json) }
        case .sharded1Ratio: return m.sharded.ratio(1)
        case .sharded3Ratio: return m.sharded.ratio(3)
        case .sharded3RawRatio: return m.sharded.rawRatios[3]
        case .p50Ratio8Clients: return ratio(mostClientsP50(m.clients), to: mostClientsP50(m.rawClients))
        case .twoAnswerEchoP50Ratio: return ratio(LatencySummary(m.rawShapedLatency).p50, to: raw.p50)
        case .twoAnswerEchoP50Ratio8Clients: return ratio(mostClientsP50(m.rawShapedClients), to: mostClientsP50(m.rawClients))
        case .raw8ClientsP50VersusOne: return ratio(mostClientsP50(m.rawClients), to: raw.p50)
        case .peerP50Ratio: return ratio(LatencySummary(m.peerLatency).p50, to: raw.p50)
        case .throughputRatio: return ratio(productRate, to: median(m.rawOneWay.map(\.rate)))
        case .scaleRatio:
            let small = median((m.sustained[m.options.scales.first!] ?? []).map(\.microsecondsEach))
            return ratio(median((m.sustained[m.options.scales.last!] ?? []).map(\.microsecondsEach)), to: small)
        case .maxIdleRSS: return m.idleRSS.filter { !$0.name.hasSuffix("-echo") }.map(\.megabytes).max() ?? 0
        case .bytesPerIdleDevice:
            let fewest = m.options.scales.min() ?? 0, most = m.options.scales.max() ?? 0
            guard most > fewest, let low = m.policyRSS[fewest], let high = m.policyRSS[most] else { return 0 }
            return max(0, high - low) * 1_048_576 / Double(most - fewest)
        }
    }
}

/// The figures the JSON line carries, and whether each meets its target (docs/benchmark.md).
struct Verdict {
    /// Each figure measured (callgrind's are missing when it did not run).
    private let figures: [Figure: Double]
    /// Product actions lost: every product run counts (latency, device creation, sustained).
    let lost: Int
    /// Actions/s with 1, 2 and 3 sharded instances of presentation-policy (empty when skipped).
    let shardedRates: [Double]
    /// The weapon tap against the raw round trip of the same blocks.
    let weaponTap: WeaponTapFigures

    init(_ m: Measurements) {
        figures = Dictionary(uniqueKeysWithValues: Figure.allCases.compactMap { figure in figure.value(in: m).map { (figure, $0) } })
        lost = m.lost
        shardedRates = ShardScaling.instanceCounts.compactMap { m.sharded.byInstances[$0]?.rate }
        weaponTap = WeaponTapFigures(raw: m.rawLatency, tap: m.weaponTapLatency, hops: m.weaponTapHops, lost: m.weaponTapLost)
    }

    /// `figure`, 0 when it was not measured.
    subscript(_ figure: Figure) -> Double { figures[figure] ?? 0 }

    /// `figure`, nil when it was not measured (callgrind's, when it did not run).
    func measured(_ figure: Figure) -> Double? { figures[figure] }

    /// The JSON line: ratios are product ÷ baseline.
    var json: String {
        let numbers = Figure.allCases.map { figure in
            "\"\(figure.rawValue)\":" + (figures[figure].map { format($0, figure.decimals) } ?? "null")
        }
        let sharded = "\"sharded_actions_per_second\":[\(shardedRates.map { format($0, 0) }.joined(separator: ","))]"
        return "{" + (numbers + [sharded, weaponTap.json(), "\"lost\":\(lost)"]).joined(separator: ", ") + "}"
    }
}

/// The number after `"key":` in the one-line JSON `text`, if any.
func jsonNumber(_ key: String, in text: String) -> Double? {
    guard let found = text.firstRange(of: "\"\(key)\":") else { return nil }
    let rest = text[found.upperBound...].drop { $0 == " " }
    return Double(String(rest.prefix { "0123456789.-e+".contains($0) }))
}

enum Report {
    /// The whole report: the table, then the JSON line last.
    static func text(_ m: Measurements) -> String {
        let verdict = Verdict(m)
        var out: [String] = []
        let o = m.options
        out.append("Monster Bus benchmark — \(o.profile) run: \(o.rounds) round(s) of \(format(o.seconds, 1)) s per throughput run, \(o.roundTrips) round trips per side, window \(o.window)")
        out.append("machine: \(machine())")
        out.append("payload: \(m.payloadBytes) bytes on both sides (the device.tap envelope); 2 frames per message; bus = the bus's own XSUB/XPUB loop, plaintext, over TCP loopback")
        out.append("")

        var table = Table(["", "baseline (libzmq)", "product", "ratio", "target", ""])
        let raw = LatencySummary(m.rawLatency), product = LatencySummary(m.productLatency)
        table.section("round trip: client → bus → echo / presentation-policy → bus → client")
        table.row("  p50", micro(raw.p50), micro(product.p50), ratio(verdict[.rttP50Ratio]), "≤ 1.15×", mark(verdict[.rttP50Ratio] <= 1.15))
        table.row("  p90", micro(raw.p90), micro(product.p90), ratio(product.p90 / max(raw.p90, 1e-9)), "", "")
        table.row("  p99", micro(raw.p99), micro(product.p99), ratio(verdict[.rttP99Ratio]), "≤ 1.3×", mark(verdict[.rttP99Ratio] <= 1.3))
        table.row("  mean / max", micro(raw.mean) + " / " + micro(raw.max), micro(product.mean) + " / " + micro(product.max), "", "", "")
        table.row("  samples (lost)", "\(raw.count) (\(m.rawLatencyLost))", "\(product.count)", "", "", "")
        if m.clientTime.roundTrips > 0 {
            let each = 1e6 / Double(m.clientTime.roundTrips)
            let t = m.clientTime
            table.row("  client's own part (mean)", "send \(format(m.rawSendMicroseconds, 1)) µs",
                      "envelope \(format(t.envelope * each, 1)), encode \(format(t.encode * each, 1)), send \(format(t.send * each, 1)), read ×2 (header only) \(format(t.decode * each, 1)) µs", "", "", "")
        }
        if let shape = m.shape {
            let shaped = LatencySummary(m.rawShapedLatency)
            table.row("  raw, 2 answers (\(shape.first) + \(shape.second) B): p50 / p99", micro(shaped.p50) + " / " + micro(shaped.p99), "",
                      ratio(product.p50 / max(shaped.p50, 1e-9)) + " / " + ratio(product.p99 / max(shaped.p99, 1e-9)), "", "")
        }

        if verdict.weaponTap.tap.count > 0 {
            let w = verdict.weaponTap
            table.row("  weapon tap (tap fire), \(w.hops) hops: p50 / p99 (lost)", micro(raw.p50) + " / " + micro(raw.p99),
                      micro(w.tap.p50) + " / " + micro(w.tap.p99) + " (\(w.lost))", ratio(w.p50Ratio) + " / " + ratio(w.p99Ratio), "", "")
        }
        if !m.peerLatency.isEmpty {
            let peer = LatencySummary(m.peerLatency)
            table.row("  Python peer (pyzmq + orjson, own bus): p50 / p99", "", micro(peer.p50) + " / " + micro(peer.p99),
                      ratio(verdict[.peerP50Ratio]) + " / " + ratio(raw.p99 > 0 ? peer.p99 / raw.p99 : 0), "product < peer",
                      mark(verdict[.rttP50Ratio] < verdict[.peerP50Ratio]))
        }
        // Several clients at once, each on its own topic: the product's against as many raw
        // clients of the echo (answered with one message); libzmq alone answering with one
        // message against one client, and in the product's shape against one message.
        for clients in m.clients.keys.sorted() {
            let run = m.clients[clients]!, summary = LatencySummary(run.latencies)
            let rawP50 = m.rawClients[clients].map { LatencySummary($0.latencies).p50 } ?? 0
            let isMost = clients == m.clients.keys.max()
            table.row("  \(clients) client(s) at once: p50 / p99 (lost) ÷ as many raw", "", micro(summary.p50) + " / " + micro(summary.p99) + " (\(run.lost))",
                      ratio(rawP50 > 0 ? summary.p50 / rawP50 : 0), isMost ? "≤ 1.2×" : "", isMost ? mark(verdict[.p50Ratio8Clients] <= 1.2) : "")
        }
        for clients in m.rawClients.keys.sorted() {
            let summary = LatencySummary(m.rawClients[clients]!.latencies)
            table.row("  raw echo, \(clients) client(s) at once: p50 / p99 (lost) ÷ one client", micro(summary.p50) + " / " + micro(summary.p99) + " (\(m.rawClients[clients]!.lost))", "",
                      ratio(raw.p50 > 0 ? summary.p50 / raw.p50 : 0), "(reference)", "")
        }
        for clients in m.rawShapedClients.keys.sorted() {
            let summary = LatencySummary(m.rawShapedClients[clients]!.latencies)
            let rawP50 = m.rawClients[clients].map { LatencySummary($0.latencies).p50 } ?? 0
            table.row("  raw echo 1→2, \(clients) client(s) at once: p50 / p99 (lost) ÷ raw echo", micro(summary.p50) + " / " + micro(summary.p99) + " (\(m.rawShapedClients[clients]!.lost))", "",
                      ratio(rawP50 > 0 ? summary.p50 / rawP50 : 0), "(reference)", "")
        }

        let rawRates = m.rawOneWay.map(\.rate)
        let scaleRuns = m.sustained[m.throughputScale] ?? []
        table.section("throughput: raw one-way msg/s vs product actions/s (\(m.throughputScale) devices), median of rounds")
        table.row("  per second", count(median(rawRates)), count(median(scaleRuns.map(\.rate))),
                  ratio(verdict[.throughputRatio]), "", "")
        table.row("  rounds", rawRates.map { count($0) }.joined(separator: " "), scaleRuns.map { count($0.rate) }.joined(separator: " "), "", "", "")
        let rawLoss = m.rawOneWay.reduce(0) { $0 + $1.lost }
        table.row("  sent → received / acked", "\(sum(m.rawOneWay, \.sent)) → \(sum(m.rawOneWay, \.completed))",
                  "\(sum(scaleRuns, \.sent)) → \(sum(scaleRuns, \.completed))", "", "", "")
        let echoRates = m.rawEcho.map(\.rate)
        table.row("  raw windowed echo (reference)", count(median(echoRates)) + " rt/s", "", ratio(median(scaleRuns.map(\.rate)) / max(median(echoRates), 1e-9)), "", "")
        if !m.rawShapedEcho.isEmpty {
            let shapedRates = m.rawShapedEcho.map(\.rate)
            table.row("  raw echo, 2 answers (reference)", count(median(shapedRates)) + " rt/s", "", ratio(verdict[.throughputVsTwoAnswerEcho]),
                      "≥ 0.50×", mark(verdict[.throughputVsTwoAnswerEcho] >= 0.5))
        }
        if !m.peerSustained.isEmpty {
            let peerRate = median(m.peerSustained.map(\.rate))
            table.row("  Python peer (own bus), \(m.throughputScale) devices", "", count(peerRate) + " actions/s",
                      ratio(peerRate / max(median(m.rawShapedEcho.map(\.rate)), 1e-9)), "", "")
        }
        table.row("  load latency p50 / p99", "", micro(LatencySummary(scaleRuns.flatMap(\.latencies)).p50) + " / " + micro(LatencySummary(scaleRuns.flatMap(\.latencies)).p99), "", "", "")

        let allProductRuns = m.sustained.values.flatMap { $0 } + m.creation.values.flatMap { $0 }
        table.section("loss (product: every action decided and acknowledged exactly once)")
        let allDecided = sum(allProductRuns, \.decided) == sum(allProductRuns, \.sent)
        table.row("  lost (and sent = decided, no duplicate)", "\(rawLoss + m.rawLatencyLost)", "\(verdict.lost)", "", "= 0",
                  mark(verdict.lost == 0 && allDecided && m.duplicates == 0))
        table.row("  sent / acked / decided", "", "\(sum(allProductRuns, \.sent)) / \(sum(allProductRuns, \.completed)) / \(sum(allProductRuns, \.decided))", "", "", "")
        table.row("  duplicates / refused", "", "\(m.duplicates) / \(m.refused)", "", "", "")
        for note in m.lossNotes { table.row("  " + note, "", "", "", "", "") }

        table.section("scale: µs of wall time per action, sustained (median of rounds)")
        let first = median((m.sustained[o.scales.first!] ?? []).map(\.microsecondsEach))
        for scale in o.scales {
            let runs = m.sustained[scale] ?? []
            let each = median(runs.map(\.microsecondsEach))
            let isLast = scale == o.scales.last!
            table.row("  \(count(Double(scale))) devices", "", format(each, 1) + " µs (" + runs.map { format($0.microsecondsEach, 1) }.joined(separator: " ") + ")",
                      ratio(first > 0 ? each / first : 0), isLast ? "≤ 1.2×" : "", isLast ? mark(verdict[.scaleRatio] <= 1.2) : "")
        }
        for scale in o.scales {
            let creations = m.creation[scale] ?? []
            table.row("  creating devices → \(count(Double(scale)))", "", format(median(creations.map(\.rate)), 0) + " /s", "", "", "")
        }

        table.section("CPU µs per round trip / message (raw) / action (product), per process (/proc/PID/stat)")
        let kinds = ["round trip raw", "round trip raw 1→2", "round trip product", "raw one-way", "raw echo", "raw echo 1→2"]
            + o.scales.map { "product \($0)" } + m.clients.keys.sorted().flatMap { ["raw, \($0) client(s)", "raw 1→2, \($0) client(s)", "\($0) client(s)"] }
        for kind in kinds {
            guard let entry = m.cpu[kind], entry.completed > 0 else { continue }
            let parts = entry.seconds.sorted { $0.key < $1.key }.map { "\($0.key) \(format($0.value * 1e6 / Double(entry.completed), 1))" }
            let total = entry.seconds.values.reduce(0, +) * 1e6 / Double(entry.completed)
            let isRaw = kind.contains("raw")
            // In a throughput run, the cores the processes kept busy (CPU seconds ÷ wall seconds):
            // 2 on this machine means the run is bound by CPU, less that something waits.
            let runs: [Throughput]? = switch kind {
            case "raw echo": m.rawEcho
            case "raw echo 1→2": m.rawShapedEcho
            default: kind.hasPrefix("product ") ? Int(kind.dropFirst(8)).flatMap { m.sustained[$0] } : nil
            }
            let several: ConcurrentClients.Run? = kind.hasSuffix("client(s)")
                ? (kind.hasPrefix("raw 1→2, ") ? Int(kind.dropFirst(9).prefix { $0.isNumber }).flatMap { m.rawShapedClients[$0] }
                    : kind.hasPrefix("raw, ") ? Int(kind.dropFirst(5).prefix { $0.isNumber }).flatMap { m.rawClients[$0] }
                    : Int(kind.prefix { $0.isNumber }).flatMap { m.clients[$0] })
                : nil
            let wall = (runs ?? []).map(\.seconds).reduce(0, +) + (several?.seconds ?? 0)
            let busy = wall > 0 ? ", \(format(entry.seconds.values.reduce(0, +) / wall, 2)) cores busy" : ""
            table.row("  \(kind)", isRaw ? parts.joined(separator: ", ") : "", isRaw ? "" : parts.joined(separator: ", "), "", "Σ \(format(total, 1))\(busy)", "")
        }

        if !m.proxyCost.own.isEmpty {
            let own = m.proxyCost.own, zmq = m.proxyCost.zmqProxy
            let ownEach = median(own.map(\.cpuMicrosecondsEach)), zmqEach = median(zmq.map(\.cpuMicrosecondsEach))
            table.section("bus cost per message: own loop (roles, permission table, service check; product column) vs zmq_proxy (baseline column), CURVE, device.tap envelopes, window \(o.window), median of rounds")
            table.row("  bus CPU µs per message", format(zmqEach, 2) + " µs", format(ownEach, 2) + " µs", ratio(ownEach / max(zmqEach, 1e-9)),
                      "+ " + format(ownEach - zmqEach, 2) + " µs", "")
            table.row("  rounds", zmq.map { format($0.cpuMicrosecondsEach, 2) }.joined(separator: " "), own.map { format($0.cpuMicrosecondsEach, 2) }.joined(separator: " "), "", "", "")
            table.row("  messages per second", count(median(zmq.map(\.rate))), count(median(own.map(\.rate))), ratio(median(own.map(\.rate)) / max(median(zmq.map(\.rate)), 1e-9)), "", "")
            table.row("  messages (lost)", "\(zmq.reduce(0) { $0 + $1.messages }) (\(zmq.reduce(0) { $0 + $1.lost }))", "\(own.reduce(0) { $0 + $1.messages }) (\(own.reduce(0) { $0 + $1.lost }))", "", "", "")
        }

        table.section("sharded presentation-policy: etcd (three members on disk) for membership, each state sent to its standby, \(ShardScaling.devices) devices; ratio ÷ unsharded")
        if let skipped = m.sharded.skipped {
            table.row("  skipped: " + skipped, "", "", "", "", "")
        }
        if let unsharded = m.sharded.unsharded {
            table.row("  unsharded: actions/s (lost, duplicates)", "\(format(unsharded.rate, 0)) (\(unsharded.lost), \(unsharded.duplicates))", "", "", "", "")
        }
        let targets = [1: 0.8, 2: 0.6, 3: 0.6]
        for count in ShardScaling.instanceCounts {
            guard let run = m.sharded.byInstances[count] else { continue }
            let share = m.sharded.ratio(count)
            table.row("  \(count) instance(s): actions/s (lost, duplicates)", "", "\(format(run.rate, 0)) (\(run.lost), \(run.duplicates))",
                      share.map(ratio) ?? "", targets[count].map { "≥ \(format($0, 1))" } ?? "",
                      share.map { mark($0 >= targets[count] ?? 0) } ?? "")
        }
        for count in ShardScaling.instanceCounts {
            guard let raw = m.sharded.rawRatios[count] else { continue }
            table.row("  libzmq alone in this shape, \(count) raw echoes ÷ one (reference)", "", "", ratio(raw), "", "")
        }

        table.section("memory: VmRSS MiB idle (after start + handshake) → after the load (private: not shared libraries)")
        for (index, idle) in m.idleRSS.enumerated() {
            let loaded = index < m.loadRSS.count ? m.loadRSS[index] : idle
            let isService = !idle.name.hasSuffix("-echo")
            let text = "\(format(idle.megabytes, 1)) → \(format(loaded.megabytes, 1)) (private \(format(idle.privateMegabytes, 1)) → \(format(loaded.privateMegabytes, 1)))"
            table.row("  \(idle.name)", isService ? "" : text, isService ? text : "", "",
                      isService ? "< 20 idle" : "", isService ? mark(idle.megabytes < 20) : "")
        }
        let policyRSS = o.scales.compactMap { scale in m.policyRSS[scale].map { "\(count(Double(scale))): \(format($0, 1))" } }
        table.row("  presentation-policy by devices", "", policyRSS.joined(separator: ", "), "", "", "")
        table.row("  bytes per idle device (presentation-policy)", "", format(verdict[.bytesPerIdleDevice], 0), "", "", "")
        out.append(table.render())

        out.append("")
        var codec = Table(["codec and envelope (in process, fastest of 5 batches)", "JSON bytes", "µs each", ""])
        for cost in m.codec {
            codec.row(cost.name, cost.bytes.map { "\($0)" } ?? "", format(cost.microseconds, 2), cost.note)
        }
        out.append(codec.render())
        let costs = Dictionary(m.codec.map { ($0.name, $0.microseconds) }, uniquingKeysWith: { first, _ in first })
        let client = (costs["encode device.tap"] ?? 0) + (costs["decode presentation.presented"] ?? 0) + (costs["decode ack"] ?? 0)
        let service = (costs["decode device.tap"] ?? 0) + (costs["encode presentation.presented"] ?? 0) + (costs["encode ack"] ?? 0)
        let envelopes = costs["new envelope (id, seq, time)"] ?? 0
        out.append("per action, codec alone: client \(format(client, 1)) µs (encode tap, decode decision + ack), presentation-policy \(format(service, 1)) µs (decode tap, encode decision + ack), + \(format(envelopes, 2)) µs per new envelope (3 per action)")

        if let callgrind = m.callgrind {
            out.append("")
            out.append(contentsOf: callgrind.table)
            let ratioText = verdict.measured(.instructionsRatio).map { format($0, 2) + "× raw (target ≤ 2.5×)" } ?? "—"
            let policyText = verdict.measured(.policyInstructions).map { grouped(Int($0)) + " (target ≤ 50,000)" } ?? "—"
            out.append("  product ÷ raw: \(ratioText); presentation-policy alone: \(policyText)")
        }

        out.append("")
        var met = [verdict[.rttP50Ratio] <= 1.15, verdict[.rttP99Ratio] <= 1.3, verdict[.throughputVsTwoAnswerEcho] >= 0.5,
                   verdict[.p50Ratio8Clients] <= 1.2, verdict.lost == 0, verdict[.bytesPerIdleDevice] <= 300]
        if let ratio = verdict.measured(.instructionsRatio) { met.append(ratio <= 2.5) }
        if let policy = verdict.measured(.policyInstructions) { met.append(policy <= 50_000) }
        if let policy = verdict.measured(.policyInstructions), let peer = verdict.measured(.peerInstructions) { met.append(policy * 4 <= peer) }
        out.append("targets met: \(met.filter { $0 }.count) of \(met.count)")
        if !m.rawShapedLatency.isEmpty {
            // The latency targets' bounds: libzmq alone, answering as the product must (an ack
            // besides the decision), in the same run.
            out.append("libzmq alone answering in the product's shape: round trip p50 \(ratio(verdict[.twoAnswerEchoP50Ratio])) raw (target ≤ 1.15×)"
                + (m.rawShapedClients.isEmpty ? "" : ", \(m.rawShapedClients.keys.max()!) clients at once p50 \(ratio(verdict[.twoAnswerEchoP50Ratio8Clients])) raw (target ≤ 1.2×)"))
        }
        out.append(verdict.json)
        return out.joined(separator: "\n")
    }

    private static func sum(_ runs: [Throughput], _ field: KeyPath<Throughput, Int>) -> Int {
        runs.reduce(0) { $0 + $1[keyPath: field] }
    }
    /// `seconds` in µs, for a table.
    static func micro(_ seconds: Double) -> String { format(seconds * 1e6, 1) + " µs" }
    /// A ratio, for a table.
    static func ratio(_ value: Double) -> String { format(value, 2) + "×" }
    private static func mark(_ ok: Bool) -> String { ok ? "met" : "MISSED" }
    private static func count(_ value: Double) -> String { grouped(Int(value.rounded())) }

    /// The machine's CPUs, libzmq's version and the time, for a report's heading.
    static func machine() -> String {
        "\(sysconf(Int32(_SC_NPROCESSORS_ONLN))) CPU(s), \(cpuModel()), libzmq \(zmqVersion), \(today())"
    }

    private static func cpuModel() -> String {
        guard let info = readFile("/proc/cpuinfo") else { return "unknown CPU" }
        for line in info.split(separator: "\n") where line.hasPrefix("model name") {
            if let colon = line.firstIndex(of: ":") {
                return line[line.index(after: colon)...].trimmingPrefix(" ").description
            }
        }
        return "unknown CPU"
    }

    private static func today() -> String {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return String(Timestamp.format(seconds: Int(spec.tv_sec), milliseconds: 0).prefix(16)).replacingOccurrences(of: "T", with: " ") + " UTC"
    }
}

/// A text table: columns sized to their widest cell, the first left-aligned.
struct Table {
    private var rows: [[String]]
    private var sections: Set<Int> = []

    init(_ header: [String]) { rows = [header] }

    mutating func row(_ cells: String...) { rows.append(cells) }

    /// A line of its own, across the table.
    mutating func section(_ title: String) {
        sections.insert(rows.count)
        rows.append([title])
    }

    func render() -> String {
        let columns = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for (index, row) in rows.enumerated() where !sections.contains(index) {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        return rows.enumerated().map { index, row in
            if sections.contains(index) { return row[0] }
            return row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + padding : padding + cell
            }.joined(separator: "  ").trimmingSuffixSpaces()
        }.joined(separator: "\n")
    }
}

extension String {
    fileprivate func trimmingSuffixSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }

    fileprivate func replacingOccurrences(of target: Character, with replacement: Character) -> String {
        String(map { $0 == target ? replacement : $0 })
    }
}

/// `value` with `decimals` digits after the point (no Foundation formatters).
func format(_ value: Double, _ decimals: Int) -> String {
    guard value.isFinite else { return "—" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let rounded = (abs(value) * scale).rounded()
    let whole = Int(rounded / scale)
    let sign = value < 0 && rounded > 0 ? "-" : ""
    guard decimals > 0 else { return sign + String(whole) }
    let fraction = Int(rounded - Double(whole) * scale)
    let digits = String(fraction)
    return sign + String(whole) + "." + String(repeating: "0", count: decimals - digits.count) + digits
}

/// `value` with thousands separated by commas.
func grouped(_ value: Int) -> String {
    let digits = String(abs(value))
    var out = ""
    for (index, digit) in digits.enumerated() {
        if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
        out.append(digit)
    }
    return (value < 0 ? "-" : "") + out
}
