/// An error of one of `Code`'s kinds, each with a stable name, explained for a person: the house
/// style of `MessageError`, for errors that carry nothing more.
public struct CodedError<Code: RawRepresentable<String> & Sendable & Equatable>: Error, Equatable, CustomStringConvertible {
    /// What kind of failure.
    public let code: Code
    /// What went wrong, for a person.
    public let reason: String

    /// A failure of `code` explained by `reason`.
    public init(_ code: Code, _ reason: String) { self.code = code; self.reason = reason }

    /// `code: reason`, e.g. `no-converter: …`.
    public var description: String { "\(code.rawValue): \(reason)" }
}
