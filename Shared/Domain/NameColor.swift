/// The colour of a monster's name label: black until the colour picker sets another.
public enum NameColor: String, FieldCase, Sendable, CaseIterable {
    case black, red, green, blue

    /// The colours the picker offers, in its order.
    public static let pickable: [NameColor] = [.red, .green, .blue]

    /// The picker's button title: `Red`, `Green`, `Blue`.
    public var title: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
}
