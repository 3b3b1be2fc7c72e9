/// The weapon types of the tutorial, with its raw values (`WeaponType` in Weapon.h).
public enum Weapon: Int, Sendable, CaseIterable, CustomStringConvertible {
    case blowgun = 0, ninjaStar = 1, fire = 2, sword = 3, smoke = 4

    /// The display name, also the JSON spelling: `Blowgun`, `NinjaStar`, ...
    public var name: String {
        switch self {
        case .blowgun: "Blowgun"
        case .ninjaStar: "NinjaStar"
        case .fire: "Fire"
        case .sword: "Sword"
        case .smoke: "Smoke"
        }
    }

    /// The image file the weapon is drawn with.
    public var imageName: String {
        switch self {
        case .blowgun: "blowgun.png"
        case .ninjaStar: "ninjastar.png"
        case .fire: "fire.png"
        case .sword: "sword.png"
        case .smoke: "smoke.png"
        }
    }

    /// The element name of the weapon's button in the input view (`ninja-star`, ...).
    public var buttonElement: String {
        switch self {
        case .ninjaStar: "ninja-star"
        default: name.lowercased()
        }
    }

    /// The weapon named `name` (`Fire`) or whose button is `name` (`fire`, `ninja-star`).
    public init?(named name: String) {
        guard let weapon = Weapon.allCases.first(where: { $0.name == name || $0.buttonElement == name }) else {
            return nil
        }
        self = weapon
    }

    /// The weapon for a person and the logs: its display name (`NinjaStar`).
    public var description: String { name }
}

extension Weapon: FieldValue {
    /// Reads a weapon from its wire form: its name (`"Fire"`) or its button's element (`"ninja-star"`).
    public static func read<Reader: ValueReader>(from reader: inout Reader) throws(Reader.Failure) -> Weapon {
        let name = try reader.readString()
        guard let weapon = Weapon(named: name) else { throw reader.invalid("unknown weapon '\(name.prefix(40))'") }
        return weapon
    }

    /// Writes the weapon as its wire form, its display name (`"NinjaStar"`).
    public func write<Writer: ValueWriter>(to writer: inout Writer) throws(Writer.Failure) {
        writer.writeString(name)
    }
}
