#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Wall-clock timestamps for envelopes, formatted without Foundation's date formatters.
public enum Timestamp {
    /// Now, as `2026-11-30T03:14:39.123Z`.
    public static func now() -> String {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return format(seconds: Int(spec.tv_sec), milliseconds: Int(spec.tv_nsec / 1_000_000))
    }

    /// `seconds` since 1970 plus `milliseconds`, in ISO 8601 UTC.
    public static func format(seconds: Int, milliseconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return pad(Int(parts.tm_year) + 1900, 4) + "-" + pad(Int(parts.tm_mon) + 1, 2) + "-" + pad(Int(parts.tm_mday), 2)
            + "T" + pad(Int(parts.tm_hour), 2) + ":" + pad(Int(parts.tm_min), 2) + ":" + pad(Int(parts.tm_sec), 2)
            + "." + pad(milliseconds, 3) + "Z"
    }

    /// Seconds on a monotonic clock, for measuring intervals.
    public static func monotonic() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
