import MonsterKit

/// A device's whole session is what a sharded instance saves and rebuilds.
extension PresentationCore: DeviceStateCore {}
