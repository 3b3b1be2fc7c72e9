import Domain

/// Draws what a simulated device's screen shows as an SVG picture.
///
/// The picture is the device's screen in points (one SVG unit is one point, origin at the
/// screen's top left) inside a thin bezel that lies at negative coordinates. The app's window
/// fills the screen, except a window narrower than the screen (an iPad's Slide Over at the right
/// edge, Split View at the left, as the layout's `windowOrigin` says) beside a grey "another app"
/// area; the `window` group is then translated, so everything in it is still in window
/// coordinates, as the model gives them. The window shows the layout's bars, bar buttons, panes,
/// rows, labels, images and text field, and the popover on top. Above it, the keyboard's window
/// (`keyboard-window`, clipped to the screen, not the window) holds the input view, which spans
/// the screen, with its keys at the frames the model gives; then an alert (`alert-window`) dims
/// the app's window. Significant parts carry an `id`
/// (`window`, `status-bar`, `popover`, `alert`, `dimming`, `input-view`, …) or a `class`
/// (`bar-button`, `row`, `popover-button`, `alert-button`, `weapon-button`, …) and a `data-name`
/// with the element's name, so tests and scripts can find them. Pure: the same state always
/// gives the same text.
public enum ScreenRenderer {
    /// The SVG document of `device`'s screen, with `input`'s input view and `roster`'s selected
    /// monster in the detail pane (its first monster when it names none); `deviceName` is shown
    /// in the status bar. Without a roster the detail pane shows empty placeholders.
    public static func svg(device: DeviceState, input: InputState?, roster: RosterSnapshot?, deviceName: String) -> String {
        var drawing = ScreenDrawing(device: device, input: input, roster: roster, deviceName: deviceName)
        return drawing.render()
    }
}
