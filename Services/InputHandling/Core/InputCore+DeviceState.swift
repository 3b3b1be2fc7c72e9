import Domain

/// A device's first responder and input views are what a sharded instance saves and rebuilds.
extension InputCore: DeviceStateCore {
    /// `InputAction(body)`.
    public static func action(of body: Body) -> InputAction? { InputAction(body) }
}
