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

    /// The help text.
    static let usage = """
        usage: bench [--quick | --full] [--rounds N] [--seconds S] [--round-trips N] [--window N]
                     [--callgrind | --no-callgrind] [--keep]

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
          7. instructions per action (client, bus, service) by valgrind's callgrind, for the raw
             echo, presentation-policy and the peer (Scripts/callgrind).

        It prints a table, then one JSON line with the ratios (product ÷ baseline). Exit status:
        0 when the run is complete (targets met or not), 1 when a process fails, 2 for a usage error.

          (default)        ~1.5 min: 3 rounds, 3 s per throughput run, 5,000 round trips
          --quick          ~30 s: 1 round, 1 s per throughput run, 1,000 round trips, up to
                           10,000 devices, no callgrind
          --full           ~5 min: 5 rounds, 6 s per throughput run, 20,000 round trips
          --rounds N       rounds of throughput measurements (default 3)
          --seconds S      seconds per throughput measurement (default 3)
          --round-trips N  round trips measured per side (default 5000)
          --window N       messages or actions in flight in throughput runs (default 128, max 300)
          --callgrind      count instructions with callgrind (the default, except with --quick)
          --no-callgrind   do not (its figures are then null in the JSON line)
          --keep           keep the temporary folder with the processes' logs
          --help           this text

        Build and run: swift run -c release bench
        """

    /// Parses `arguments` (without the program name); a message for the user when they are wrong.
    static func parse(_ arguments: [String]) -> Result<Options, UsageError> {
        var options = Options()
        var index = 0
        func value(_ name: String) -> Result<Double, UsageError> {
            index += 1
            guard index < arguments.count, let number = Double(arguments[index]), number > 0 else {
                return .failure(UsageError("\(name) needs a positive number"))
            }
            return .success(number)
        }
        while index < arguments.count {
            switch arguments[index] {
            case "--quick":
                options.profile = "quick"
                options.rounds = 1; options.seconds = 1; options.roundTrips = 1_000; options.warmUp = 100
                options.codecIterations = 1_000
                options.scales = [10, 1_000, 10_000]; options.callgrind = false
            case "--full":
                options.profile = "full"
                options.rounds = 5; options.seconds = 6; options.roundTrips = 20_000; options.warmUp = 1_000
                options.codecIterations = 20_000
                options.callgrindActions = 1_000
            case "--callgrind":
                options.callgrind = true
            case "--no-callgrind":
                options.callgrind = false
            case "--rounds":
                switch value("--rounds") {
                case .success(let number): options.rounds = Int(number)
                case .failure(let error): return .failure(error)
                }
            case "--seconds":
                switch value("--seconds") {
                case .success(let number): options.seconds = number
                case .failure(let error): return .failure(error)
                }
            case "--round-trips":
                switch value("--round-trips") {
                case .success(let number): options.roundTrips = Int(number)
                case .failure(let error): return .failure(error)
                }
            case "--window":
                switch value("--window") {
                case .success(let number) where number <= 300: options.window = Int(number)
                case .success: return .failure(UsageError("--window is at most 300 (3 messages per action under the high-water mark of 1000)"))
                case .failure(let error): return .failure(error)
                }
            case "--keep":
                options.keep = true
            default:
                return .failure(UsageError("unknown argument '\(arguments[index])'"))
            }
            index += 1
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
