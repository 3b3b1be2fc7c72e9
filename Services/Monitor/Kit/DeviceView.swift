import Domain

/// What the monitor shows of one device: the three services' parts of its state, each as the
/// service last published it (`nil` until the service has answered a `device.describe`).
public struct DeviceView: Sendable, Equatable {
    /// presentation-policy's part: layout, popover or alert, disabled views.
    public var state: DeviceState?
    /// input-handling's part: first responder and input view.
    public var input: InputState?
    /// roster's part: the monster the device's detail pane shows.
    public var selected: String?
    /// One more at every change, so a page knows what to redraw.
    public var version: UInt64 = 1

    /// A device seen but not yet described.
    public init() {}
}

/// A device presentation-policy said it does not know, and what it said.
public struct MissingDevice: Sendable, Equatable {
    /// The device id asked about.
    public var device: String
    /// presentation-policy's `error` message (`device 'x' is unknown: …`).
    public var message: String
}
