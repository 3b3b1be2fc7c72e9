// `bench --weapon-tap-only [--against DIR]`: the weapon tap and the raw echo alone, on this
// tree's stack and, with `--against`, on a stack of another tree's executables (DIR: its
// `.build/release`) at the same time, the two measured alternately so that the machine's load
// falls on both alike (`Scripts/bench-compare REV` builds REV and runs this).

import Domain
import Glibc
import ZeroMQ

/// The weapon tap's figures against the raw echo of the same run: `tap` until the weapon has
/// changed (roster's answer, the weapon tap's round trip), `hidden` until the picker is hidden
/// (input-handling's answer) and `add` the product row's action by the same client
/// (`TapClient.addTap`), the last two when measured.
struct WeaponTapFigures {
    let raw, tap, hidden, add: LatencySummary
    /// The services a weapon tap went through, and the answers that never came.
    let hops, lost: Int

    init(raw: [Double], tap: [Double], hidden: [Double] = [], add: [Double] = [], hops: Int, lost: Int) {
        self.raw = LatencySummary(raw)
        self.tap = LatencySummary(tap)
        self.hidden = LatencySummary(hidden)
        self.add = LatencySummary(add)
        self.hops = hops
        self.lost = lost
    }

    var p50Ratio: Double { raw.p50 > 0 ? tap.p50 / raw.p50 : 0 }
    var p99Ratio: Double { raw.p99 > 0 ? tap.p99 / raw.p99 : 0 }

    /// The JSON members `weapon_tap_…` (µs, ratios to the raw echo's p50 and p99, hops), each
    /// key after `prefix`.
    func json(prefix: String = "") -> String {
        "\"\(prefix)weapon_tap_p50_us\":\(format(tap.p50 * 1e6, 1)), \"\(prefix)weapon_tap_p99_us\":\(format(tap.p99 * 1e6, 1)), "
            + "\"\(prefix)weapon_tap_p50_ratio\":\(format(p50Ratio, 3)), \"\(prefix)weapon_tap_p99_ratio\":\(format(p99Ratio, 3)), "
            + "\"\(prefix)weapon_tap_hops\":\(hops)"
    }

    /// What the row says about the tap.
    static let title = "weapon tap (iPhone, picker shown: tap fire/sword → roster.monster.updated)"
}

/// One side of a weapon-tap run: the executables it starts (nil: this tree's) and what was
/// measured on it, round after round.
private final class WeaponTapSide {
    let directory: String?
    /// Samples (seconds) by round: raw round trips, weapon taps until the weapon changed and
    /// until the picker was hidden, `add` taps until decided.
    var rounds: [(raw: [Double], tap: [Double], hidden: [Double], add: [Double])] = []
    /// CPU seconds each process used in the measured blocks of each kind (`raw`, `weapon`,
    /// `add`), and the round trips of that kind completed meanwhile.
    var cpu: CPUTally = [:]
    /// The processes measured, in the stack's order.
    var processNames: [String] = []
    var hops = 0
    var lost = 0

    init(directory: String?) { self.directory = directory }

    /// The figures of round `index`, or of every round.
    func figures(round index: Int? = nil) -> WeaponTapFigures {
        let chosen = index.map { [rounds[$0]] } ?? rounds
        return WeaponTapFigures(
            raw: chosen.flatMap(\.raw), tap: chosen.flatMap(\.tap), hidden: chosen.flatMap(\.hidden), add: chosen.flatMap(\.add),
            hops: hops, lost: lost)
    }

    /// CPU µs per round trip of `kind`, by process, in the stack's order.
    func cpuText(_ kind: String) -> String {
        guard let entry = cpu[kind], entry.completed > 0 else { return "" }
        return processNames.map { "\($0) \(format((entry.seconds[$0] ?? 0) * 1e6 / Double(entry.completed), 0))" }
            .joined(separator: ", ")
    }
}

/// A side's stack for one round, with its clients, ready to measure.
private final class LiveSide {
    let side: WeaponTapSide
    let stack: BenchStack
    let raw: RawClient
    let tap: TapClient

    /// Starts the side's stack and connects both clients; `addressed` as `TapClient`.
    init(_ side: WeaponTapSide, context: ZMQContext, addressed: Bool) throws {
        self.side = side
        stack = try BenchStack(directory: side.directory)
        do {
            tap = try TapClient(context: context, config: stack.config, addressed: addressed)
            let sample = tap.bus.envelope(.tap(Tap(element: TapClient.weapons[0], profile: .iphone)), device: TapClient.device)
            raw = try RawClient(context: context, config: stack.config, payload: try tap.bus.codec.encode(sample))
            try raw.handshake(timeout: 20)
            try tap.prepare(services: stack.serviceNames, timeout: 30)
        } catch {
            stack.stop(keep: true)
            throw BenchError("\(error)\nlogs:\n\(stack.logTails)")
        }
        side.processNames = processes.map(\.name)
    }

    /// Closes the clients and stops the stack.
    func stop(keep: Bool) {
        raw.close()
        tap.close()
        side.hops = tap.hops
        side.lost += tap.lost + raw.lost
        stack.stop(keep: keep)
    }

    /// The processes whose CPU time counts: this one (the client) and the stack's.
    private var processes: [(name: String, pid: pid_t)] { [("bench", getpid())] + stack.processes }

    /// One block of `count` raw round trips, `count` weapon taps and `count` `add` taps, into
    /// the side's last round; the stack settles after each kind of tap (what is still due is
    /// not counted).
    func block(_ count: Int) throws {
        let round = side.rounds.count - 1
        var meter = CPUMeter(processes)
        for _ in 0..<count { if let seconds = try raw.roundTrip() { side.rounds[round].raw.append(seconds) } }
        side.cpu.add("raw", meter.used(), count)
        meter = CPUMeter(processes)
        for _ in 0..<count {
            guard let times = try tap.roundTrip() else { continue }
            side.rounds[round].tap.append(times.weaponChanged)
            side.rounds[round].hidden.append(times.pickerHidden)
        }
        side.cpu.add("weapon", meter.used(), count)
        try tap.settle()
        meter = CPUMeter(processes)
        for _ in 0..<count { if let seconds = try tap.addTap() { side.rounds[round].add.append(seconds) } }
        side.cpu.add("add", meter.used(), count)
        try tap.settle()
    }
}

enum WeaponTapRun {
    /// Runs the measurement and returns the report (a table, then one JSON line).
    static func run(_ options: Options) throws -> String {
        let sides = [WeaponTapSide(directory: nil)] + (options.against.map { [WeaponTapSide(directory: $0)] } ?? [])
        // Against another tree, both sides are measured by type (no `replyTo`): the same client
        // and messages on both, whatever the other tree's wire knows; alone, as the gateway does.
        let addressed = options.against == nil
        let context = try ZMQContext()
        let perBlock = min(25, options.roundTrips)
        let blocks = max(1, options.roundTrips / perBlock / options.rounds)
        for round in 0..<options.rounds {
            // Fresh stacks every round (started in turn first), so that what differs from one
            // stack's processes to another's shows in the rounds' spread.
            progress("round \(round + 1)/\(options.rounds): starting \(sides.count == 2 ? "both stacks" : "the stack") (bus, \(BenchStack.serviceNames.joined(separator: ", ")), raw echo)")
            var live: [LiveSide] = []
            defer { for entry in live { entry.stop(keep: options.keep) } }
            for side in round % 2 == 0 ? sides : sides.reversed() { live.append(try LiveSide(side, context: context, addressed: addressed)) }
            live.sort { a, b in a.side === sides[0] && b.side !== sides[0] }
            try measure(live, blocks: blocks, perBlock: perBlock, warmUp: options.warmUp / options.rounds)
        }
        return sides.count == 2 ? comparison(sides[0], sides[1], options) : report(sides[0], options)
    }

    /// Warms every side up, then alternates blocks of raw round trips, weapon taps and `add`
    /// taps side after side (each side first in turn).
    private static func measure(_ sides: [LiveSide], blocks: Int, perBlock: Int, warmUp: Int) throws {
        for _ in 0..<warmUp {
            for side in sides {
                _ = try side.raw.roundTrip()
                _ = try side.tap.roundTrip()
                _ = try side.tap.addTap()
            }
        }
        for side in sides { side.side.rounds.append(([], [], [], [])) }
        progress("\(blocks * perBlock) raw round trips, weapon taps and add taps on each side, alternating every \(perBlock)")
        for block in 0..<blocks {
            for side in block % 2 == 0 ? sides : sides.reversed() { try side.block(perBlock) }
        }
        for side in sides { try side.stack.checkAlive() }
    }

    /// The heading of either report.
    private static func heading(_ figures: WeaponTapFigures, _ options: Options) -> [String] {
        ["Monster Bus benchmark — weapon tap: \(options.rounds) round(s), \(figures.tap.count) weapon taps and \(figures.raw.count) raw round trips per side",
         "machine: \(Report.machine())", ""]
    }

    /// This tree alone: the weapon tap against the raw echo.
    private static func report(_ side: WeaponTapSide, _ options: Options) -> String {
        let figures = side.figures()
        var table = Table(["", "raw echo", "weapon tap", "ratio"])
        table.section(WeaponTapFigures.title + ", \(figures.hops) hop(s); raw echo through the same bus, alternating every 25")
        table.row("  p50", Report.micro(figures.raw.p50), Report.micro(figures.tap.p50), Report.ratio(figures.p50Ratio))
        table.row("  p99", Report.micro(figures.raw.p99), Report.micro(figures.tap.p99), Report.ratio(figures.p99Ratio))
        table.row("  until the picker is hidden: p50 / p99", "", Report.micro(figures.hidden.p50) + " / " + Report.micro(figures.hidden.p99), "")
        table.row("  add tap (iPad, presentation-policy's decision): p50 / p99", "", Report.micro(figures.add.p50) + " / " + Report.micro(figures.add.p99), "")
        table.row("  lost (weapon taps, add taps and raw round trips)", "", "\(side.lost)", "")
        return (heading(figures, options) + [table.render(), "{\(figures.json()), \"lost\":\(figures.lost)}"]).joined(separator: "\n")
    }

    /// A figure measured on both sides: its value on each over the whole run, and this tree's
    /// over the other's round by round. The verdict goes by the rounds, each on fresh stacks
    /// under the same load on both sides: a regression is slower by more than 5 % in every round
    /// (on this shared machine two stacks of the same tree differ by more than that in a round,
    /// but not the same way in every one).
    private struct Comparison {
        let name: String
        let this: Double
        let other: Double
        let rounds: [Double]

        /// The median of the rounds' ratios.
        var ratio: Double { median(rounds) }
        var verdict: String {
            if let best = rounds.min(), best > 1.05 { return "REGRESSION" }
            if let worst = rounds.max(), worst < 0.95 { return "faster" }
            // Not the same way in every round: said, but not a verdict.
            if ratio > 1.05 { return "slower in \(rounds.filter { $0 > 1.05 }.count) of \(rounds.count) rounds" }
            if ratio < 0.95 { return "faster in \(rounds.filter { $0 < 0.95 }.count) of \(rounds.count) rounds" }
            return "same (within noise)"
        }

        /// `figure` of both sides, overall and in each round.
        init(_ name: String, _ this: WeaponTapSide, _ other: WeaponTapSide, _ figure: (WeaponTapFigures) -> Double) {
            self.name = name
            self.this = figure(this.figures())
            self.other = figure(other.figures())
            rounds = (0..<min(this.rounds.count, other.rounds.count)).map { round in
                let theirs = figure(other.figures(round: round))
                return theirs > 0 ? figure(this.figures(round: round)) / theirs : 0
            }
        }
    }

    /// This tree against the other: each figure, their ratio, and whether it is a regression.
    private static func comparison(_ this: WeaponTapSide, _ other: WeaponTapSide, _ options: Options) -> String {
        let comparisons = [
            Comparison("raw echo p50 (µs)", this, other) { $0.raw.p50 * 1e6 },
            Comparison("raw echo p99 (µs)", this, other) { $0.raw.p99 * 1e6 },
            Comparison("weapon tap p50 (µs)", this, other) { $0.tap.p50 * 1e6 },
            Comparison("weapon tap p99 (µs)", this, other) { $0.tap.p99 * 1e6 },
            Comparison("weapon tap p50 ÷ raw p50", this, other) { $0.p50Ratio },
            Comparison("weapon tap p99 ÷ raw p99", this, other) { $0.p99Ratio },
            Comparison("until the picker is hidden p50 (µs)", this, other) { $0.hidden.p50 * 1e6 },
            Comparison("until the picker is hidden p99 (µs)", this, other) { $0.hidden.p99 * 1e6 },
            Comparison("add tap (iPad, the decision) p50 (µs)", this, other) { $0.add.p50 * 1e6 },
            Comparison("add tap (iPad, the decision) p99 (µs)", this, other) { $0.add.p99 * 1e6 },
        ]
        let mine = this.figures(), theirs = other.figures()
        var table = Table(["", "this tree", "against", "this ÷ against (median)", "rounds", ""])
        table.section(WeaponTapFigures.title + "; raw echo through the same bus; both sides alternating every 25, by type (no replyTo)")
        for c in comparisons {
            table.row("  " + c.name, format(c.this, 2), format(c.other, 2), Report.ratio(c.ratio),
                      c.rounds.map { format($0, 2) }.joined(separator: " "), c.verdict)
        }
        table.row("  hops", "\(mine.hops)", "\(theirs.hops)", "", "", "")
        table.row("  lost", "\(mine.lost)", "\(theirs.lost)", "", "", "")
        table.section("CPU µs per round trip, by process (/proc/PID/stat), this tree | against")
        for (kind, title) in [("raw", "raw echo"), ("weapon", "weapon tap (with its tap weapon)"), ("add", "add tap")] {
            table.row("  " + title, this.cpuText(kind), "| " + other.cpuText(kind), "", "", "")
        }
        let regressions = comparisons.filter { $0.verdict == "REGRESSION" }.map(\.name)
        return (heading(mine, options) + [
            table.render(), "",
            "this ÷ against: the median of the rounds' ratios (fresh stacks each round); REGRESSION: slower by more than 5 % in every round; faster: faster by more than 5 % in every round; otherwise, with the median beyond 5 %, in how many rounds",
            "regressions: " + (regressions.isEmpty ? "none" : regressions.joined(separator: ", ")),
            "{\(mine.json()), \(theirs.json(prefix: "against_")), \"weapon_tap_p50_vs_against\":\(format(comparisons[2].ratio, 3)), "
                + "\"weapon_tap_p99_vs_against\":\(format(comparisons[3].ratio, 3)), \"regressions\":\(regressions.count), \"lost\":\(mine.lost + theirs.lost)}",
        ]).joined(separator: "\n")
    }
}
