// What /proc says about a process: resident memory and CPU time.

import Glibc

enum ProcessStats {
    /// VmRSS of `pid` in MiB, from /proc/PID/status; nil if it cannot be read.
    static func residentMegabytes(_ pid: pid_t) -> Double? {
        guard let status = readFile("/proc/\(pid)/status") else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2, let kilobytes = Double(fields[1]) else { return nil }
            return kilobytes / 1024
        }
        return nil
    }

    /// Memory only this process uses, in MiB: Private_Clean + Private_Dirty of
    /// /proc/PID/smaps_rollup (VmRSS also counts the shared libraries' pages every process shares).
    static func privateMegabytes(_ pid: pid_t) -> Double? {
        guard let rollup = readFile("/proc/\(pid)/smaps_rollup") else { return nil }
        var kilobytes = 0.0
        for line in rollup.split(separator: "\n") where line.hasPrefix("Private_Clean:") || line.hasPrefix("Private_Dirty:") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2, let value = Double(fields[1]) else { return nil }
            kilobytes += value
        }
        return kilobytes / 1024
    }

    /// User + system CPU seconds used so far by every thread of `pid` (/proc/PID/stat).
    static func cpuSeconds(_ pid: pid_t) -> Double? {
        guard let stat = readFile("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return nil }
        // Fields after "(comm)": state is field 3; utime and stime are fields 14 and 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}

/// CPU seconds of several processes, sampled before and after a measurement.
struct CPUMeter {
    let pids: [(name: String, pid: pid_t)]
    private var start: [Double] = []

    /// A meter over `pids`, started now.
    init(_ pids: [(name: String, pid: pid_t)]) {
        self.pids = pids
        start = pids.map { ProcessStats.cpuSeconds($0.pid) ?? 0 }
    }

    /// CPU seconds each process used since the meter started, by name.
    func used() -> [String: Double] {
        var used: [String: Double] = [:]
        for (index, entry) in pids.enumerated() {
            used[entry.name] = (ProcessStats.cpuSeconds(entry.pid) ?? start[index]) - start[index]
        }
        return used
    }
}

/// CPU seconds by process, summed over the runs of each kind, and what those runs completed.
typealias CPUTally = [String: (seconds: [String: Double], completed: Int)]

extension CPUTally {
    /// Adds CPU seconds `used` by each process during a run of `kind` that completed `completed`.
    mutating func add(_ kind: String, _ used: [String: Double], _ completed: Int) {
        var entry = self[kind] ?? ([:], 0)
        for (name, seconds) in used { entry.seconds[name, default: 0] += seconds }
        entry.completed += completed
        self[kind] = entry
    }
}
