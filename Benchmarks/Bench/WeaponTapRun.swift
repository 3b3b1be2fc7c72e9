// `bench --weapon-tap-only [--against DIR]`: the weapon tap and the raw echo alone, on this
// tree's stack and, with `--against`, on a stack of another tree's executables (DIR: its
// `.build/release`) at the same time, the two measured alternately so that the machine's load
// falls on both alike (`Scripts/bench-compare REV` builds REV and runs this).

import BusKit
import Glibc
import MonsterKit
import ZeroMQ

/// The weapon tap's figures against the raw echo of the same run.
struct WeaponTapFigures {
    let raw: LatencySummary
    /// Until the weapon has changed (roster's answer): the weapon tap's round trip.
    let tap: LatencySummary
    /// Until the picker is hidden (input-handling's answer), when measured.
    let hidden: LatencySummary
    /// The product row's action by the same client (`TapClient.addTap`), when measured.
    let add: LatencySummary
    /// The services a weapon tap went through.
    let hops: Int
    let lost: Int

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

/// One stack of a weapon-tap run and its clients.
private final class WeaponTapSide {
    let stack: BenchStack
    let raw: RawClient
    let tap: TapClient
    /// Samples (seconds) by round: raw round trips, weapon taps until the weapon changed and
    /// until the picker was hidden, `add` taps until decided.
    var rounds: [(raw: [Double], tap: [Double], hidden: [Double], add: [Double])] = []

    init(stack: BenchStack, context: ZMQContext, addressed: Bool) throws {
        self.stack = stack
        tap = try TapClient(context: context, config: stack.config, addressed: addressed)
        let sample = tap.bus.envelope(.tap(Tap(element: TapClient.weapons[0], profile: .iphone)), device: TapClient.device)
        raw = try RawClient(context: context, config: stack.config, payload: try tap.bus.codec.encode(sample))
    }

    func close() {
        raw.close()
        tap.close()
    }

    /// One block of `count` raw round trips, `count` weapon taps and `count` `add` taps, into
    /// the last round.
    func block(_ count: Int) throws {
        let round = rounds.count - 1
        for _ in 0..<count { if let seconds = try raw.roundTrip() { rounds[round].raw.append(seconds) } }
        for _ in 0..<count {
            guard let times = try tap.roundTrip() else { continue }
            rounds[round].tap.append(times.weaponChanged)
            rounds[round].hidden.append(times.pickerHidden)
        }
        for _ in 0..<count { if let seconds = try tap.addTap() { rounds[round].add.append(seconds) } }
    }

    /// The figures of round `index`, or of every round.
    func figures(round index: Int? = nil) -> WeaponTapFigures {
        let chosen = index.map { [rounds[$0]] } ?? rounds
        return WeaponTapFigures(
            raw: chosen.flatMap(\.raw), tap: chosen.flatMap(\.tap), hidden: chosen.flatMap(\.hidden), add: chosen.flatMap(\.add), hops: tap.hops,
            lost: tap.lost + raw.lost)
    }
}

enum WeaponTapRun {
    /// Runs the measurement and returns the report (a table, then one JSON line).
    static func run(_ options: Options) throws -> String {
        var stacks: [BenchStack] = []
        defer { for stack in stacks.reversed() { stack.stop(keep: options.keep) } }
        progress("starting the bus, \(BenchStack.serviceNames.joined(separator: ", ")) and the raw echo")
        stacks.append(try BenchStack())
        if let against = options.against {
            progress("starting the same from \(against)")
            stacks.append(try BenchStack(directory: against))
        }
        let context = try ZMQContext()
        // Against another tree, both sides are measured by type (no `replyTo`): the same client
        // and messages on both, whatever the other tree's wire knows; alone, as the gateway does.
        let sides = try stacks.map { try WeaponTapSide(stack: $0, context: context, addressed: options.against == nil) }
        defer { for side in sides { side.close() } }
        do {
            for side in sides {
                try side.raw.handshake(timeout: 20)
                try side.tap.prepare(services: side.stack.serviceNames, timeout: 30)
            }
            try measure(sides, options)
        } catch {
            throw BenchError("\(error)\nlogs:\n" + sides.map(\.stack.logTails).joined(separator: "\n"))
        }
        return sides.count == 2 ? comparison(sides[0], sides[1], options) : report(sides[0], options)
    }

    /// Warms every side up, then alternates blocks of 25 raw round trips, 25 weapon taps and 25
    /// `add` taps side after side (in turn first), for `options.rounds` rounds.
    private static func measure(_ sides: [WeaponTapSide], _ options: Options) throws {
        progress("warming up: \(options.warmUp) raw round trips, weapon taps and add taps on each side")
        for _ in 0..<options.warmUp {
            for side in sides {
                _ = try side.raw.roundTrip()
                _ = try side.tap.roundTrip()
                _ = try side.tap.addTap()
            }
        }
        let perBlock = min(25, options.roundTrips)
        let blocks = max(1, options.roundTrips / perBlock / options.rounds)
        for round in 0..<options.rounds {
            progress("round \(round + 1)/\(options.rounds): \(blocks * perBlock) raw round trips, weapon taps and add taps on each side, alternating every \(perBlock)")
            for side in sides { side.rounds.append(([], [], [], [])) }
            for block in 0..<blocks {
                // Each side goes first every other block, so that neither always follows the other.
                for side in block % 2 == 0 ? sides : sides.reversed() { try side.block(perBlock) }
            }
            for side in sides { try side.stack.checkAlive() }
        }
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
        table.row("  lost", "\(side.raw.lost)", "\(side.tap.lost)", "")
        return (heading(figures, options) + [table.render(), "{\(figures.json()), \"lost\":\(figures.lost)}"]).joined(separator: "\n")
    }

    /// A figure measured on both sides: this tree's value over the other's, overall and round by round.
    private struct Comparison {
        let name: String
        let this: Double
        let other: Double
        let rounds: [Double]

        var ratio: Double { other > 0 ? this / other : 0 }
        /// What the rounds disagree by: half the range of their ratios, at least 5 %.
        var noise: Double { max(0.05, ((rounds.max() ?? 0) - (rounds.min() ?? 0)) / 2) }
        var verdict: String {
            if ratio > 1 + noise { return "REGRESSION" }
            if ratio < 1 - noise { return "faster" }
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
        var table = Table(["", "this tree", "against", "this ÷ against", "rounds", ""])
        table.section(WeaponTapFigures.title + "; raw echo through the same bus; both sides alternating every 25, by type (no replyTo)")
        for c in comparisons {
            table.row("  " + c.name, format(c.this, 2), format(c.other, 2), Report.ratio(c.ratio),
                      c.rounds.map { format($0, 2) }.joined(separator: " "), c.verdict)
        }
        table.row("  hops", "\(mine.hops)", "\(theirs.hops)", "", "", "")
        table.row("  lost", "\(mine.lost)", "\(theirs.lost)", "", "", "")
        let regressions = comparisons.filter { $0.verdict == "REGRESSION" }.map(\.name)
        return (heading(mine, options) + [
            table.render(), "",
            "a figure is a REGRESSION when this ÷ against exceeds 1 by more than the noise: half the range of the rounds' ratios, at least 5 %",
            "regressions: " + (regressions.isEmpty ? "none" : regressions.joined(separator: ", ")),
            "{\(mine.json()), \(theirs.json(prefix: "against_")), \"weapon_tap_p50_vs_against\":\(format(comparisons[2].ratio, 3)), "
                + "\"weapon_tap_p99_vs_against\":\(format(comparisons[3].ratio, 3)), \"regressions\":\(regressions.count), \"lost\":\(mine.lost + theirs.lost)}",
        ]).joined(separator: "\n")
    }
}
