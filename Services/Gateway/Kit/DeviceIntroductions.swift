import Domain
import Wire

/// What the services have been told of each device's profile in one run (a scenario, a shell, a
/// file of `gateway test`), so that no device the run described is refused `unknown-device`.
/// presentation-policy is the service that needs a device's profile: it gets it with the
/// device's first action when that action goes to it, or else from a `device.describe` sent
/// just before (it reaches every service and changes nothing), whatever that first action is —
/// a roster request, a weapon-picker button, a tap at a point. The profile goes again when a
/// line describes the device otherwise (presentation-policy then says `device-conflict`), and
/// after the device is forgotten.
struct DeviceIntroductions {
    /// The services that refuse a device they were never given the profile of.
    static let needingProfile = [MonsterBus.Service.presentationPolicy]

    /// The profile each device was last described with in the run.
    private var described: [String: DeviceProfile] = [:]
    /// The profile the services were last given for each device, until it is forgotten.
    private var given: [String: DeviceProfile] = [:]

    /// How to send one line's action.
    struct Plan: Equatable {
        /// The profile the action itself carries (`nil`: none).
        var profile: DeviceProfile?
        /// The profile to send first in a `device.describe`: the action does not take it to every
        /// service that needs it.
        var describeFirst: DeviceProfile?
    }

    /// The plan for `command` on `device`, whose line described it as `profile` (`nil`: the line
    /// did not describe it; the run's earlier description holds).
    mutating func plan(_ command: GatewayCommand, device: String, profile: DeviceProfile?) -> Plan {
        if let profile { described[device] = profile }
        guard let profile = described[device], given[device] != profile, let reach = Self.reach(of: command) else { return Plan() }
        return reach.carriesProfile && Self.needingProfile.allSatisfy(reach.firstHop.contains)
            ? Plan(profile: profile) : Plan(describeFirst: profile)
    }

    /// Records that the services were given `profile` for `device`.
    mutating func gave(_ profile: DeviceProfile, to device: String) {
        given[device] = profile
    }

    /// Records that `device` was forgotten: its next action describes it again.
    mutating func forgot(_ device: String) {
        given[device] = nil
    }

    /// Where `command`'s action goes first and whether its body has a profile; `nil` for a
    /// command that is not about a device (status, ping, forget).
    private static func reach(of command: GatewayCommand) -> (firstHop: [String], carriesProfile: Bool)? {
        let body: Body? = if case .screen = command { .describe(Describe()) } else { command.action(profile: nil) }
        guard let body, let firstHop = Routing.firstHop(of: body) else { return nil }
        switch body {
        case .forget: return nil
        case .tap, .rotate, .resize, .select, .interaction, .describe: return (firstHop, true)
        default: return (firstHop, false)
        }
    }
}
