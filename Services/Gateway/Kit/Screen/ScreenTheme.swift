import Domain

/// The colours, fonts and fixed sizes the screen is drawn with: a light, iOS-like look.
enum ScreenTheme {
    /// The system font stack; DejaVu Sans or another sans-serif stands in where none is installed.
    static let fontFamily = "-apple-system, BlinkMacSystemFont, 'SF Pro Text', 'Helvetica Neue', Helvetica, Arial, sans-serif"

    /// Buttons and other tappable text (`systemBlue`).
    static let tint = "#007AFF"
    /// A tinted button's fill: the tint, faint.
    static let tintedFill = "#E6F1FF"
    /// Text of a control whose user interaction is disabled.
    static let disabled = "#B4B4B9"
    /// Primary text.
    static let label = "#000000"
    /// Secondary text.
    static let secondaryLabel = "#3C3C43"
    /// Tertiary text: file names on placeholders.
    static let tertiaryLabel = "#8A8A8E"
    /// A text field's placeholder.
    static let placeholder = "#C4C4C6"
    /// Table separators and the split view's divider.
    static let separator = "#C6C6C8"
    /// Navigation and status bars.
    static let barBackground = "#F7F7F7"
    /// The line under a bar.
    static let barHairline = "#B2B2B2"
    /// Content backgrounds.
    static let background = "#FFFFFF"
    /// A placeholder image.
    enum Image {
        static let fill = "#EFEFF4"
        static let stroke = "#C7C7CC"
        /// Its pictogram.
        static let glyph = "#C2C2C8"
    }
    /// An alert's box.
    static let alertBackground = "#F2F2F2"
    /// The layer an alert puts over the screen.
    enum Dimming {
        static let color = "#000000"
        static let opacity = 0.4
    }
    /// A popover's outline.
    static let popoverStroke = "#D1D1D6"
    /// The keyboard, and so an input view.
    enum Keyboard {
        static let background = "#D1D4DA"
        static let key = "#FFFFFF"
        /// The keyboard's wide keys (shift, delete, the keys beside the space bar).
        static let specialKey = "#ACB1BA"
        static let keyShadow = "#898A8D"
    }
    /// The device around the screen.
    enum Bezel {
        static let color = "#1C1C1E"
        static let width = 12.0
        static let radius = 22.0
    }

    /// The popover's corner radius, and half the width of its arrow's base.
    static let popoverRadius = 13.0
    static let arrowHalfWidth = 14.0
    /// An alert's corner radius.
    static let alertRadius = 14.0
    /// The status bar's clock: a fixed time, so the same state always draws the same picture.
    static let statusBarTime = "9:41"

    /// The name label's colour: UIKit's `blackColor`, `redColor`, `greenColor`, `blueColor`.
    static func color(_ color: NameColor) -> String {
        switch color {
        case .black: "#000000"
        case .red: "#FF0000"
        case .green: "#00FF00"
        case .blue: "#0000FF"
        }
    }
}
