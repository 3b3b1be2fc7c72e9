import BusKit
import Glibc
import MonsterKit
import PresentationService

// presentation-policy: decides how things are presented on each simulated device.
exit(ServiceMain.runSharded(name: MonsterBus.Service.presentationPolicy) { _, _ in
    PresentationHandler(activity: DeviceActivity(limit: try DeviceIdleExpiry.fromEnvironment()))
})
