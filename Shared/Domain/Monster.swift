/// A monster of the roster, as the detail pane shows it.
public struct Monster: Sendable, Equatable {
    /// Unique name, e.g. `Dog-Bot`.
    public var name: String
    /// The description line, e.g. `BOW-WOW`.
    public var description: String
    /// The icon file, e.g. `meetdogbot.png`.
    public var icon: String
    /// The preferred way to kill.
    public var weapon: Weapon
    /// The weapon's image file (derived from `weapon`, carried for readers of the JSON).
    public var weaponImage: String
    /// The name label's colour.
    public var color: NameColor

    /// A monster with `weaponImage` derived from `weapon`.
    public init(name: String, description: String, icon: String, weapon: Weapon, color: NameColor = .black) {
        self.name = name
        self.description = description
        self.icon = icon
        self.weapon = weapon
        self.weaponImage = weapon.imageName
        self.color = color
    }

    /// The same monster with another weapon.
    public func with(weapon: Weapon) -> Monster {
        Monster(name: name, description: description, icon: icon, weapon: weapon, color: color)
    }

    /// The same monster with another name colour.
    public func with(color: NameColor) -> Monster {
        Monster(name: name, description: description, icon: icon, weapon: weapon, color: color)
    }
}

extension Monster: FieldSet {
    /// Every field blank: what reading starts from.
    public static var placeholder: Monster { Monster(name: "", description: "", icon: "", weapon: .blowgun) }

    /// The fields, in the order they are written.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("name", &name)
        try fields.field("description", &description)
        try fields.field("icon", &icon)
        try fields.field("weapon", &weapon)
        try fields.field("weaponImage", &weaponImage)
        try fields.field("color", &color)
    }
}

/// The six monsters of the tutorial, in its order, as they are before any change.
public enum Catalogue {
    /// The monsters in roster order.
    public static let monsters: [Monster] = [
        Monster(name: "Cat-Bot", description: "MEE-OW", icon: "meetcatbot.png", weapon: .sword),
        Monster(name: "Dog-Bot", description: "BOW-WOW", icon: "meetdogbot.png", weapon: .blowgun),
        Monster(name: "Explode-Bot", description: "Tick, tick, BOOM!", icon: "meetexplodebot.png", weapon: .smoke),
        Monster(name: "Fire-Bot", description: "Will Make You Steamed", icon: "meetfirebot.png", weapon: .ninjaStar),
        Monster(name: "Ice-Bot", description: "Has A Chilling Effect", icon: "meeticebot.png", weapon: .fire),
        Monster(name: "Mini-Tomato-Bot", description: "Extremely Handsome", icon: "meetminitomatobot.png", weapon: .ninjaStar),
    ]

    /// The names in roster order.
    public static let names: [String] = monsters.map(\.name)

    /// The monster the detail pane shows before anything is selected (the first one).
    public static let initialSelection = "Cat-Bot"

    /// The monster named `name`, as it is before any change.
    public static func monster(named name: String) -> Monster? {
        monsters.first { $0.name == name }
    }
}
