import Domain

/// A device's whole session is what a sharded instance saves and rebuilds.
extension PresentationCore: DeviceStateCore {
    /// `PresentationAction(body)`.
    public static func action(of body: Body) -> PresentationAction? { PresentationAction(body) }
}
