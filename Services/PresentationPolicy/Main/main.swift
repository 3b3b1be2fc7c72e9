import Domain
import Glibc
import PresentationService
import Runtime
import ServiceLaunch

// presentation-policy: decides how things are presented on each simulated device.
exit(ServiceMain.runSharded(name: MonsterBus.Service.presentationPolicy) { _, _ in
    PresentationHandler(activity: DeviceActivity(limit: try DeviceIdleExpiry.fromEnvironment()))
})
