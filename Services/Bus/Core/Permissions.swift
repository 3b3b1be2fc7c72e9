import Domain
import Wire

/// The permission table, derived from the vocabulary's declarations (`MessageType.spec`, in
/// `Shared/Wire/Vocabulary.swift`): who may publish each type, and which prefixes each
/// role may subscribe to. A topic this build does not declare is published by nobody: a new
/// type is a new declaration, which names its publishers.
public enum Permissions {
    /// The roles that may publish `type`: its declaration's publishers.
    public static func publishers(of type: MessageType) -> Set<Role> {
        type.spec.publishers
    }

    /// The topic prefixes each role may subscribe to (`""`: everything in the vocabulary).
    /// Reading is open to every role: no topic is secret, and a refused subscription would
    /// only make a client wait for nothing.
    public static let subscribers: [Role: [String]] = Dictionary(uniqueKeysWithValues: Role.allCases.map { ($0, [""]) })
}
