import Glibc

/// The process's environment variables, read from the C library's `environ`: what Foundation's
/// `ProcessInfo.processInfo.environment` gives, without loading Foundation (and the ICU and
/// libcurl it brings into every process's resident memory).
public enum ProcessEnvironment {
    /// Every variable now, by name (the first of a name set twice wins, as with `getenv`).
    public static var current: [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                let name = String(text[..<equals])
                if result[name] == nil { result[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return result
    }
}
