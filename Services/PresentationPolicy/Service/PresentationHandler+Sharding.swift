import BusKit
import PresentationCore

/// Sharded, presentation-policy saves and rebuilds each device's whole session.
extension PresentationHandler: DeviceCoreHandler {}
