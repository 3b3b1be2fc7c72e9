/// The names of the app window's fixed elements as taps spell them (rows are `row:NAME`), and
/// `outside`, the window's background.
public enum ElementName: String, CaseIterable, Sendable {
    /// The status bar, and the roster pane (landscape iPad) with its navigation bar.
    case statusBar = "status-bar", master, masterNavigationBar = "master-navigation-bar"
    /// The detail pane's navigation bar, and the detail pane.
    case navigationBar = "navigation-bar", detail
    /// The bar buttons (`+`, Choose Color, Monster List) and the detail's name, description and icon.
    case add, color, monsterList = "monster-list", name, description, icon
    /// The weapon's label, the weapon image (first responder: the weapon picker) and the notes field.
    case weaponLabel = "weapon-label", weapon, notes
    /// The window's background: a tap on no element.
    case outside

    /// The prefix of a roster row's name (`row:Cat-Bot`).
    public static let rowPrefix = "row:"
}

/// The kinds of the window's elements (`LayoutElement.kind`), with their wire strings.
public enum ElementKind: String, FieldCase, CaseIterable, Sendable {
    /// A navigation bar's button.
    case barButton
    /// The status bar or a navigation bar.
    case bar
    /// The master or detail pane.
    case pane
    /// A row of the roster list.
    case row
    /// A text label.
    case label
    /// An image view.
    case image
    case textField
}

/// The elements of the input views (input-handling's), as taps spell them.
public enum InputElement {
    /// The weapon picker's close button.
    public static let close = "close"
    /// The weapon picker's buttons, in the tutorial's order.
    public static let weaponPickerButtons = [Weapon.blowgun, .fire, .ninjaStar, .smoke, .sword].map(\.buttonElement) + [close]
}
