import BusKit
import InputCore

/// Sharded, input-handling saves and rebuilds each device's first responder and input views.
extension InputHandler: DeviceCoreHandler {}
