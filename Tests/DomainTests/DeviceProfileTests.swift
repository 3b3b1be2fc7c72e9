import Domain
import Testing
import TestTiers

/// A profile's screen is 1 to 4096 points on each side (the `bad-profile` error says so).
@Suite(.tags(.unit)) struct DeviceProfileTests {
    @Test(arguments: [(1.0, 1.0, true), (4096, 4096, true), (4096, 1, true), (1, 4096, true),
                      (0.999, 1, false), (1, 0.999, false), (4096.001, 1, false), (1, 4096.001, false)])
    func aScreenFrom1To4096PointsOnEachSideIsUsable(_ width: Double, _ height: Double, _ usable: Bool) {
        var profile = DeviceProfile.ipad
        profile.screen = Size(width: width, height: height)
        #expect(profile.problems.isEmpty == usable, "\(width)×\(height): \(profile.problems)")
    }
}
