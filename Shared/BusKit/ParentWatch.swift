#if canImport(Glibc)
import Glibc
import CLinux
#elseif canImport(Darwin)
import Darwin
#endif

/// Ties a process's life to the process that started it, so that a test run or a benchmark
/// that dies (a trap, SIGKILL) leaves no bus or service running behind it.
///
/// The starter puts its own pid in `MONSTERBUS_PARENT_PID`; every executable calls `start()`
/// first thing. A thread then waits on a pidfd of that parent (`pidfd_open`, readable once the
/// whole process has exited) and ends this process with `_exit(1)` when it becomes readable —
/// at once, like SIGKILL, so a mutant that breaks the SIGTERM path cannot keep it alive.
/// `PR_SET_PDEATHSIG` is not used: it fires when the *thread* that spawned the child exits, and
/// Foundation's `Process` and Swift Testing spawn from pool threads that come and go.
public enum ParentWatch {
    /// The variable holding the pid of the process whose death must end this one.
    public static let environmentVariable = "MONSTERBUS_PARENT_PID"

    /// If `MONSTERBUS_PARENT_PID` is set: leaves at once when that process is not (or no
    /// longer) this one's parent, else starts the watching thread. Without it, does nothing.
    public static func start() {
        guard let text = getenv(environmentVariable).map({ String(cString: $0) }), !text.isEmpty else { return }
        guard let parent = pid_t(text), parent > 0 else {
            Log.standardError("\(environmentVariable)=\(text) is not a pid: ignored\n")
            return
        }
        #if canImport(Glibc)
        // Open first, then check: had the parent died before the pidfd was opened, this process
        // would have been re-parented already, so a matching getppid() proves the pidfd is its.
        let descriptor = pidfd_open(parent, 0)
        let openError = errno
        guard getppid() == parent else {
            Log.standardError("pid \(getpid()): parent \(parent) has already exited, leaving\n")
            _exit(1)
        }
        guard descriptor >= 0 else {
            Log.standardError("pid \(getpid()): cannot watch parent \(parent) (pidfd_open: \(String(cString: strerror(openError)))); it may outlive it\n")
            return
        }
        _ = OSThread {
            var item = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            while poll(&item, 1, -1) < 0 && errno == EINTR {}
            Log.standardError("pid \(getpid()): parent \(parent) exited, leaving\n")
            _exit(1)
        }
        #endif
    }
}
