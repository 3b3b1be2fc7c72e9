import Domain
import Glibc
import InputService
import Runtime
import ServiceLaunch

// input-handling: owns first responders and input views (the weapon picker).
exit(ServiceMain.runSharded(name: MonsterBus.Service.inputHandling) { _, _ in
    InputHandler(activity: DeviceActivity(limit: try DeviceIdleExpiry.fromEnvironment()))
})
