import Domain
import ProcessSupport

// What a bench run does and for how long: `--quick`, the default, `--full`, and overrides.

/// The knobs of one run. Every measurement alternates baseline and product in `rounds`, so that
/// whatever else the machine is doing weighs on both sides alike.
struct Options {
    /// `quick`, `default` or `full`, for the report.
    var profile = "default"
    /// Rounds of (raw throughput, product throughput at each scale).
    var rounds = 3
    /// Seconds each throughput measurement sends for.
    var seconds = 3.0
    /// Round trips measured on each side, in total (split into `rounds` blocks, after a warm-up).
    var roundTrips = 5_000
    /// Round trips thrown away on each side before measuring.
    var warmUp = 300
    /// Messages (raw) or actions (product) in flight at most in the throughput runs. It stays
    /// well under libzmq's default high-water mark of 1000 (the product's replies are two
    /// messages per action, and libzmq learns of reads 500 messages at a time), so that a PUB
    /// socket should never have to drop anything.
    var window = 128
    /// The device counts of the scale measurement; the middle one is the throughput run.
    var scales = [10, 1_000, 10_000, 100_000]
    /// Numbers of product clients making round trips at once.
    var clientCounts = [1, 2, 4, 8]
    /// Run `Scripts/callgrind` (instructions per action under valgrind) at the end.
    var callgrind = true
    /// Round trips counted per side by callgrind.
    var callgrindActions = 300
    /// Iterations of each codec measurement.
    var codecIterations = 5_000
    /// Keep the temporary folder (logs, roster database) after the run.
    var keep = false
    /// Measure only the weapon tap and the raw echo (`WeaponTapRun`).
    var weaponTapOnly = false
    /// Another tree's `.build/release`, whose stack the weapon tap is compared with.
    var against: String?

    static let quick = ProgramOption(
        "--quick", help: "~30 s: 1 round, 1 s per throughput run, 1,000 round trips, up to 10,000 devices, no callgrind")
    static let full = ProgramOption("--full", help: "~5 min: 5 rounds, 6 s per throughput run, 20,000 round trips")
    static let smoke = ProgramOption(
        "--smoke", help: "a few samples of every measurement (or, with --weapon-tap-only, of the weapon tap's): checks that the bench runs to the end, measures nothing (Scripts/test)")
    static let roundsOption = ProgramOption("--rounds", value: "N", help: "rounds of throughput measurements (default 3)")
    static let secondsOption = ProgramOption("--seconds", value: "S", help: "seconds per throughput measurement (default 3)")
    static let roundTripsOption = ProgramOption("--round-trips", value: "N", help: "round trips measured per side (default 5000)")
    static let windowOption = ProgramOption(
        "--window", value: "N", help: "messages or actions in flight in throughput runs (default 128, max 300)")
    static let callgrindOption = ProgramOption("--callgrind", help: "count instructions with callgrind (the default, except with --quick)")
    static let noCallgrind = ProgramOption("--no-callgrind", help: "do not (its figures are then null in the JSON line)")
    static let keepOption = ProgramOption("--keep", help: "keep the temporary folder with the processes' logs")
    static let weaponTapOnlyOption = ProgramOption(
        "--weapon-tap-only", help: "only the weapon tap (tap fire on an iPhone's picker), the add tap and the raw echo, alternating (~30 s)")
    static let againstOption = ProgramOption(
        "--against", value: "DIR",
        help: "with --weapon-tap-only: also a stack of the executables in DIR (another tree's .build/release), measured alternately; ratios this ÷ DIR (Scripts/bench-compare)")
    /// Every option, in the order the help lists them.
    static let all: [ProgramOption] = [
        quick, full, smoke, roundsOption, secondsOption, roundTripsOption, windowOption, callgrindOption, noCallgrind, keepOption, weaponTapOnlyOption,
        againstOption, .help,
    ]

    /// The help text.
    static let usage = ProgramHelp(
        usage: "bench [--quick | --full | --smoke] [--rounds N] [--seconds S] [--round-trips N] [--window N] [--callgrind | --no-callgrind] [--keep] [--weapon-tap-only [--against DIR]]",
        summary: """
            Measures Monster Bus against libzmq alone, through the same XSUB/XPUB proxy, in one run:
            it starts its own bus, presentation-policy, roster and input-handling (the release
            executables next to this one) on ephemeral TCP ports, and a raw echo process.

              1. baseline: raw ping-pong latency (client PUB -> bus -> echo process -> bus -> client
                 SUB) and raw one-way throughput (PUB -> bus -> SUB, windowed, count checked), with
                 payloads as large as the product's action envelope;
              2. product: a device.tap of `add` on an iPad -> presentation.presented/dismissed and the
                 ack back at the sender (latency), and sustained actions per second from many
                 devices with a window of actions in flight, every action acknowledged exactly once;
              3. the envelope codec alone (encode/decode µs per envelope);
              4. scale: µs per action with 10 to 100,000 devices holding state, and round trips
                 with 1, 2, 4 and 8 clients at once;
              5. memory: VmRSS of each process idle and after the load;
              6. the same decision served by a Python peer (pyzmq + orjson, Benchmarks/peer, installed
                 by Benchmarks/peer/setup) on a bus of its own: round trips and throughput;
              7. the weapon tap: on an iPhone with the weapon picker shown, a tap on a weapon until
                 roster says the weapon changed (client -> input-handling -> roster), beside the raw echo;
              8. instructions per action (client, bus, service) by valgrind's callgrind, for the raw
                 echo, presentation-policy and the peer (Scripts/callgrind).

            It prints a table, then one JSON line with the ratios (product ÷ baseline). Exit status:
            0 when the run is complete (targets met or not), 1 when a process fails, 2 for a usage error.
            Without options: ~1.5 min: 3 rounds, 3 s per throughput run, 5,000 round trips.
            """,
        options: all, environment: [],
        notes: """
            The stack it starts gets its own endpoints and settings; it reads no environment variables.
            Build and run: swift run -c release bench
            """
    ).text

    /// Parses `arguments` (without the program name); a message for the user when they are wrong.
    static func parse(_ arguments: [String]) -> Result<Options, UsageError> {
        let parsed: [ParsedOption]
        do {
            parsed = try OptionParser.parse(arguments, all)
        } catch {
            return .failure(UsageError(error.description))
        }
        var options = Options()
        for option in parsed {
            let number = option.value.flatMap(Double.init)
            if option.value != nil, option.name != againstOption.names[0], !(number.map { $0 > 0 } ?? false) {
                return .failure(UsageError("\(option.name) needs a positive number"))
            }
            switch option.name {
            case quick.names[0]:
                options.profile = "quick"
                options.rounds = 1; options.seconds = 1; options.roundTrips = 1_000; options.warmUp = 100
                options.codecIterations = 1_000
                options.scales = [10, 1_000, 10_000]; options.callgrind = false
            case full.names[0]:
                options.profile = "full"
                options.rounds = 5; options.seconds = 6; options.roundTrips = 20_000; options.warmUp = 1_000
                options.codecIterations = 20_000
                options.callgrindActions = 1_000
            case smoke.names[0]:
                options.profile = "smoke"
                options.rounds = 1; options.seconds = 0.2; options.roundTrips = 50; options.warmUp = 10
                options.codecIterations = 100
                options.scales = [10, 100]; options.clientCounts = [1, 2]; options.callgrind = false
            case callgrindOption.names[0]: options.callgrind = true
            case noCallgrind.names[0]: options.callgrind = false
            case roundsOption.names[0]: options.rounds = Int(number ?? 1)
            case secondsOption.names[0]: options.seconds = number ?? 1
            case roundTripsOption.names[0]: options.roundTrips = Int(number ?? 1)
            case windowOption.names[0]:
                guard let number, number <= 300 else {
                    return .failure(UsageError("--window is at most 300 (3 messages per action under the high-water mark of 1000)"))
                }
                options.window = Int(number)
            case keepOption.names[0]: options.keep = true
            case weaponTapOnlyOption.names[0]: options.weaponTapOnly = true
            case againstOption.names[0]: options.against = option.value
            default: break
            }
        }
        if options.against != nil && !options.weaponTapOnly {
            return .failure(UsageError("--against compares the weapon tap only: add --weapon-tap-only"))
        }
        options.rounds = max(1, options.rounds)
        options.roundTrips = max(options.rounds, options.roundTrips)
        return .success(options)
    }
}

/// A command line the bench cannot follow.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
