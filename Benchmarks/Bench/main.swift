// bench: Monster Bus against libzmq alone, through the same bus, in one run (docs/benchmark.md).
// `swift run -c release bench [--quick | --full]`; `bench --help` explains.

import Glibc
import ProcessSupport
import Processes

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--raw-echo" {
    // The baseline's echo process, started by the bench itself (and ending with it); with
    // `--member K N [--shape S]`, one of N answering in the sharded instances' shape (or S).
    ParentWatch.start()
    if arguments.count >= 4, arguments[1] == "--member", let index = Int(arguments[2]), let count = Int(arguments[3]), count > 0, (0..<count).contains(index) {
        let replication = arguments.count == 6 && arguments[4] == "--shape" ? RawWire.Replication(rawValue: arguments[5]) : arguments.count == 4 ? .active : nil
        guard let replication else {
            Log.standardError("bench --raw-echo: --member K N [--shape \(RawWire.Replication.allCases.map(\.rawValue).joined(separator: "|"))]\n")
            exit(2)
        }
        exit(RawEcho.run(member: (index, count), replication: replication))
    }
    exit(RawEcho.run())
}
if arguments.first == "--callgrind-run", arguments.count == 3, let count = Int(arguments[2]), count >= 0 {
    // One side's fixed number of round trips, under valgrind (`Scripts/callgrind`).
    ParentWatch.start()
    Children.stopOnSignals(program: "bench")
    do {
        try CallgrindRun.run(side: arguments[1], count: count)
        exit(0)
    } catch {
        Log.standardError("bench: \(error)\n")
        exit(1)
    }
}
if arguments == ["--raw-shapes"] {
    // libzmq alone in each shape of replication, 2 and 3 echoes (docs/scaling.md).
    Children.stopOnSignals(program: "bench")
    let lines = Result { () throws -> [String] in
        let stack = try BenchStack(services: [], echo: false)
        defer { stack.stop(keep: false) }
        return try RawShapes.run(stack: stack, seconds: 2, window: 128, rounds: 3)
    }
    switch lines {
    case .success(let lines):
        for line in lines { print(line) }
        exit(0)
    case .failure(let error):
        Log.standardError("bench: \(error)\n")
        exit(1)
    }
}
if arguments == ["--sharded-only"] {
    // Only the sharded row: 1, 2 and 3 sharded instances of presentation-policy.
    Children.stopOnSignals(program: "bench")
    let runs = Result { () throws -> ShardedRuns in
        let stack = try BenchStack(services: [], echo: false)
        defer { stack.stop(keep: false) }
        return try ShardScaling.run(stack: stack, seconds: 2, window: 128, rounds: 3)
    }
    switch runs {
    case .success(let runs):
        if let skipped = runs.skipped { print("skipped: \(skipped)") }
        if let run = runs.unsharded { print("unsharded (median run): \(format(run.rate, 0)) actions/s, lost \(run.lost), duplicates \(run.duplicates)") }
        for count in ShardScaling.instanceCounts {
            guard let run = runs.byInstances[count] else { continue }
            let raw = runs.rawRatios[count].map { "; libzmq alone in this shape \(format($0, 3))" } ?? ""
            print("\(count) instance(s): \(format(run.rate, 0)) actions/s, lost \(run.lost), duplicates \(run.duplicates), ÷ unsharded \(runs.ratio(count).map { format($0, 3) } ?? "-")\(raw)")
        }
        exit(0)
    case .failure(let error):
        Log.standardError("bench: \(error)\n")
        exit(1)
    }
}
if arguments == ["--throughput-only"] {
    // Only the throughput row, with every process's CPU time and the bus's counters (~30 s).
    Children.stopOnSignals(program: "bench")
    do {
        print(try ThroughputRun.run())
        exit(0)
    } catch {
        Log.standardError("bench: \(error)\n")
        exit(1)
    }
}
if arguments == ["--latency-cost"] || arguments == ["--latency-cost", "--smoke"] {
    // What extra instructions on the round trip's path cost in its p50 (~10 s; a few samples
    // with --smoke, for Scripts/test).
    Children.stopOnSignals(program: "bench")
    do {
        print(arguments.contains("--smoke") ? try LatencyCost.run(blocks: 1, warmUp: 5) : try LatencyCost.run())
        exit(0)
    } catch {
        Log.standardError("bench: \(error)\n")
        exit(1)
    }
}
if arguments.contains("--help") || arguments.contains("-h") {
    print(Options.usage)
    exit(0)
}
let options: Options
switch Options.parse(arguments) {
case .success(let parsed):
    options = parsed
case .failure(let error):
    Log.standardError("bench: \(error)\n\(Options.usage)\n")
    exit(2)
}

#if DEBUG
Log.standardError("bench: this is a debug build: measure with `swift run -c release bench`\n")
#endif
Children.stopOnSignals(program: "bench")
do {
    print(options.weaponTapOnly ? try WeaponTapRun.run(options) : Report.text(try BenchRun.run(options)))
    exit(0)
} catch {
    Log.standardError("bench: \(error)\n")
    exit(1)
}
