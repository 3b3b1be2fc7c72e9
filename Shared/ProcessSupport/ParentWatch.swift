import CLinux
import Glibc

/// Ties a process's life to the process that started it, so that a test run or a benchmark
/// that dies (a trap, SIGKILL) leaves no bus or service running behind it.
///
/// The starter puts its own pid in `MONSTERBUS_PARENT_PID` (children of children inherit it, and
/// watch that same ancestor); every executable calls `start()` first thing. A thread then waits
/// on a pidfd of that process (`pidfd_open`, readable once the
/// whole process has exited) and ends this process with `_exit(1)` when it becomes readable —
/// at once, like SIGKILL, so a mutant that breaks the SIGTERM path cannot keep it alive.
/// `PR_SET_PDEATHSIG` is not used: it fires when the *thread* that spawned the child exits, and
/// Foundation's `Process` and Swift Testing spawn from pool threads that come and go.
public enum ParentWatch {
    /// The variable holding the pid of the process whose death must end this one.
    public static let environmentVariable = "MONSTERBUS_PARENT_PID"

    /// If `MONSTERBUS_PARENT_PID` is set: leaves at once when that process no longer exists,
    /// else starts the watching thread. Without it, does nothing.
    public static func start() {
        guard let text = getenv(environmentVariable).map({ String(cString: $0) }), !text.isEmpty else { return }
        guard let parent = pid_t(text), parent > 0 else {
            Log.standardError("\(environmentVariable)=\(text) is not a pid: ignored\n")
            return
        }
        // The named process is the parent, or an ancestor further up when a script stands
        // between (a test's Python checker starting the gateway): watch it either way. Gone
        // already (ESRCH): leave at once.
        let descriptor = pidfd_open(parent, 0)
        let openError = errno
        guard descriptor >= 0 else {
            if openError == ESRCH {
                Log.standardError("pid \(getpid()): process \(parent) (\(environmentVariable)) has already exited, leaving\n")
                _exit(1)
            }
            Log.standardError("pid \(getpid()): cannot watch process \(parent) (pidfd_open: \(String(cString: strerror(openError)))); it may outlive it\n")
            return
        }
        _ = OSThread {
            var item = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            while poll(&item, 1, -1) < 0 && errno == EINTR {}
            Log.standardError("pid \(getpid()): parent \(parent) exited, leaving\n")
            _exit(1)
        }
    }
}
