import FoundationEssentials

/// `gateway test --junit FILE`: the results as JUnit XML, the report GitHub Actions, GitLab and
/// Jenkins show. A `testsuite` per file, a `testcase` per expectation named `FILE:LINE` (with a
/// `failure` or `skipped` child when it did not pass); a file that could not be run is one
/// `testcase` named after it, in `error`; actions that could not be performed are listed in the
/// suite's `system-err`.
public enum JUnitReport {
    /// The XML document of `results`.
    public static func xml(_ results: [ScenarioFileResult]) -> String {
        let tests = results.reduce(0) { $0 + count($1).tests }
        let failures = results.reduce(0) { $0 + $1.failed }
        let errors = results.reduce(0) { $0 + count($1).errors }
        let skipped = results.reduce(0) { $0 + $1.skipped }
        let seconds = results.reduce(0) { $0 + $1.seconds }
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<testsuites name="gateway test" tests="\#(tests)" failures="\#(failures)" errors="\#(errors)" skipped="\#(skipped)" time="\#(time(seconds))">"#,
        ]
        for result in results {
            let name = attribute(result.path)
            let counted = count(result)
            lines.append(#"  <testsuite name="\#(name)" tests="\#(counted.tests)" failures="\#(result.failed)" errors="\#(counted.errors)" skipped="\#(result.skipped)" time="\#(time(result.seconds))">"#)
            if let problem = result.problem {
                lines.append(#"    <testcase name="\#(name)" classname="\#(name)" time="0">"#)
                lines.append(#"      <error message="\#(attribute(problem.message))" type="scenario"/>"#)
                lines.append("    </testcase>")
            }
            for expectation in result.expectations {
                let opening = #"    <testcase name="\#(attribute(result.place(expectation.line)))" classname="\#(name)" time="0""#
                switch expectation.verdict {
                case .passed:
                    lines.append(opening + "/>")
                case .failed(let message):
                    lines.append(opening + ">")
                    lines.append(#"      <failure message="\#(attribute(message))" type="expectation">\#(text(message))</failure>"#)
                    lines.append("    </testcase>")
                case .skipped(let reason):
                    lines.append(opening + ">")
                    lines.append(#"      <skipped message="\#(attribute(reason))"/>"#)
                    lines.append("    </testcase>")
                }
            }
            if !result.actionErrors.isEmpty {
                let listed = result.actionErrors.map { "\(result.place($0.line)): \($0.message)" }.joined(separator: "\n")
                lines.append("    <system-err>\(text(listed))</system-err>")
            }
            lines.append("  </testsuite>")
        }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A suite's test cases and those in error: its expectations, or one for a file not run.
    private static func count(_ result: ScenarioFileResult) -> (tests: Int, errors: Int) {
        result.problem == nil ? (result.expectations.count, 0) : (result.expectations.count + 1, 1)
    }

    private static func time(_ seconds: Double) -> String {
        let milliseconds = Int((seconds * 1000).rounded())
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// `value` escaped for an attribute: markup characters, quotes and line breaks (kept as
    /// character references, which an attribute would otherwise fold into spaces).
    static func attribute(_ value: String) -> String {
        text(value).replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "\n", with: "&#10;")
    }

    /// `value` escaped for character data; characters XML 1.0 cannot hold at all (control
    /// characters other than tab and line breaks) become U+FFFD.
    static func text(_ value: String) -> String {
        var escaped = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\t", "\n", "\r": escaped.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: escaped += "\u{FFFD}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
