import Glibc
import ProcessSupport

/// `DEVICE_IDLE_EXPIRY_SECONDS`: how long a device may go unused before every service forgets it.
public enum DeviceIdleExpiry {
    /// The default: 30 days.
    public static let defaultSeconds: Double = 30 * 24 * 3600

    /// The limit from the environment, or the default; a value that is not a positive number
    /// of seconds is a configuration error naming the variable.
    public static func fromEnvironment() throws(ConfigError) -> Double {
        try parse(getenv(EnvironmentVariable.deviceIdleExpiry.name).map { String(cString: $0) })
    }

    /// The expiry `text` asks for (unset or empty: the default); anything but a positive
    /// finite number of seconds is a configuration error.
    public static func parse(_ text: String?) throws(ConfigError) -> Double {
        guard let text, !text.isEmpty else { return defaultSeconds }
        guard let seconds = Double(text), seconds.isFinite, seconds > 0 else {
            throw ConfigError("DEVICE_IDLE_EXPIRY_SECONDS must be a positive number of seconds (default \(Int(defaultSeconds)), 30 days), not '\(text)'")
        }
        return seconds
    }
}
