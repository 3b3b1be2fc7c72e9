import JSON
import Domain
import JSON

// The types whose decoding checks more than the JSON type: what they accept, stated beside the
// recorder (each reads its values from the type itself where it can).

extension Weapon: SchemaDescribing {
    /// A weapon's name as written (`NinjaStar`) or as its button is named (`ninja-star`): both are read.
    public static var jsonSchema: JSONValue {
        var names: [String] = []
        for weapon in Weapon.allCases {
            for name in [weapon.name, weapon.buttonElement] where !names.contains(name) { names.append(name) }
        }
        return [
            "type": "string", "enum": .array(names.map(JSONValue.string)),
            "description": "A weapon: written as its name (Blowgun, NinjaStar, Fire, Sword, Smoke); its button's element name (ninja-star) is read too.",
        ]
    }
}

extension OSVersion: SchemaDescribing {
    /// A dotted version of one to three numbers (`17.0`, `3.1.3`).
    public static var jsonSchema: JSONValue {
        ["type": "string", "pattern": "^[0-9]+(\\.[0-9]+){0,2}$", "description": "An OS version: one to three dotted numbers, e.g. 17.0 or 3.1.3."]
    }
}
