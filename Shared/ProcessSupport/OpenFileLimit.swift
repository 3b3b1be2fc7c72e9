import Glibc

/// The process's limit on open files (`RLIMIT_NOFILE`): a server holding many connections
/// raises its soft limit (often 1,024) to the hard limit it is allowed.
public enum OpenFileLimit {
    /// Raises the soft limit to the hard limit; returns the soft limit now in force (as it was
    /// when it cannot be read or raised).
    @discardableResult
    public static func raiseToHard() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)  // RLIM_INFINITY (all bits set) clamps to Int.max
    }
}
