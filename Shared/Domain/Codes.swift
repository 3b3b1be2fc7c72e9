/// Why a service refused a message: the `code` of the `error` it publishes, each declared once
/// with its wire string (the bus's codes are `BusPolicy.Refusal`; a message that cannot be taken
/// as it is — `unknown-type` among them — has `MessageError.Code`).
public enum RefusalCode: String, CaseIterable, Sendable {
    /// The envelope has no `device` and the message needs one.
    case missingDevice = "missing-device"
    /// A device profile that cannot be a device (sizes out of range, …).
    case badProfile = "bad-profile"
    /// A device id already used by other hardware.
    case deviceConflict = "device-conflict"
    /// A device never described.
    case unknownDevice = "unknown-device"
    /// A resize whose window mode and width class disagree.
    case badResize = "bad-resize"
    /// A tap with neither or both of an element and a point, or a point that is not finite.
    case badTap = "bad-tap"
    /// Keyboard metrics out of range.
    case badKeyboard = "bad-keyboard"
    /// A tap on an element whose user interaction is off.
    case interactionDisabled = "interaction-disabled"
    /// An alert is up: only its buttons can be tapped.
    case modalAlert = "modal-alert"
    /// An element that exists, but is not on screen now.
    case noSuchElement = "no-such-element"
    /// A name that is no element of the app nor of its input views.
    case unknownElement = "unknown-element"
    /// No monster has this name.
    case unknownMonster = "unknown-monster"
    /// An action the device cannot do (resizing an iPhone's window).
    case unsupported
    /// The roster could not store a change.
    case storage
    /// A backup path outside roster's backup folder, or one that exists.
    case backupPath = "backup-path"
    /// A backup that could not be written.
    case backupFailed = "backup-failed"
    /// A sharded instance that lost its membership.
    case fenced
    /// A sharded instance that does not own the device's bucket.
    case notOwner = "not-owner"
    /// The service is overloaded.
    case overloaded

    /// The refusals of an instance that does not decide the message now, though another may
    /// (`fenced`, `not-owner`): nothing was decided, and a repeat of the same id may be.
    public static let sendAgain: Set<RefusalCode> = [.fenced, .notOwner]
}

extension ErrorBody {
    /// Whether this refusal only says to send the message again (`RefusalCode.sendAgain`): the
    /// runtime does not remember it as the answer to its id, and a client that retries takes it
    /// as no answer yet.
    public var asksToSendAgain: Bool { RefusalCode(rawValue: code).map(RefusalCode.sendAgain.contains) ?? false }
}

/// Why an action changed nothing: the `reason` of `action.unchanged`, declared once.
public enum UnchangedReason: String, CaseIterable, Sendable {
    /// A point off the screen.
    case offScreen = "off-screen"
    /// A point on the screen, outside the app's window.
    case outsideWindow = "outside-window"
    /// A tap inside a popover, on none of its buttons.
    case insidePopover = "inside-popover"
    /// A tap on a popover's passthrough view that does nothing with it.
    case passthrough
    /// A tap on a pane, a bar or the background.
    case emptySpace = "empty-space"
    /// A tap on an element that does nothing when tapped.
    case noAction = "no-action"
    /// A tap in an input view between its keys.
    case noKey = "no-key"
    /// A tap on the first responder that already is.
    case alreadyFirstResponder = "already-first-responder"
    /// User interaction set to what it already was.
    case interactionUnchanged = "interaction-unchanged"
    /// A rotation to the orientation the device has.
    case sameOrientation = "same-orientation"
    /// A resize to the window the device has.
    case sameWidth = "same-width"
}

/// Why a presentation went away (`presentation.dismissed`), or was hidden for a while
/// (`presentation.hidden`: `rotation`), declared once.
public enum DismissalReason: String, CaseIterable, Sendable {
    /// One of its buttons.
    case button
    /// A tap outside the popover.
    case outsideTap = "outside-tap"
    /// A tap on the bar button it came from.
    case toggle
    /// A tap on another bar button, which presents its own.
    case replaced
    /// A row of the Monster List was picked.
    case selection
    /// After a rotation or resize its anchor is not on screen.
    case anchorGone = "anchor-gone"
    /// After a rotation or resize: its anchor was a rectangle, which UIKit does not follow.
    case rectAnchor = "rect-anchor"
    /// The window became compact, where no popover can stay.
    case sizeClass = "size-class"
    /// The device turns (only `presentation.hidden`).
    case rotation
}

/// Why a presentation or an input view came up or moved (`presentation.presented`,
/// `presentation.moved`, `input.shown`, `input.hidden`), declared once.
public enum ChangeReason: String, CaseIterable, Sendable {
    /// A tap on the element that presents it.
    case tap
    /// The device turned.
    case rotation
    /// The iPad's window changed size.
    case resize
    /// A view became first responder.
    case firstResponder = "first-responder"
    /// Another view became first responder.
    case takenOver = "taken-over"
    /// The input view's close button.
    case closed
    /// A weapon was picked in the weapon picker.
    case weaponSelected = "weapon-selected"
}
