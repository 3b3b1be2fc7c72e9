import MonsterKit

/// A device's first responder and input views are what a sharded instance saves and rebuilds.
extension InputCore: DeviceStateCore {}
