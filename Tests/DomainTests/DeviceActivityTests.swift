import Domain
import Testing
import TestTiers

/// Idle devices are found by the clock the caller passes in.
@Suite(.tags(.unit)) struct DeviceActivityTests {
    @Test func aDeviceUnusedForLongerThanTheLimitIsExpiredOnce() {
        var activity = DeviceActivity(limit: 100, lastUsed: ["old": 0])
        activity.touch("busy", at: 50)
        #expect(activity.expire(at: 95) == [])
        // Idle since 100, but the next sweep is a tenth of the limit after the last one.
        #expect(activity.expire(at: 101) == [])
        #expect(activity.expire(at: 105) == ["old"])
        #expect(activity.count == 1)
        activity.touch("busy", at: 150)
        #expect(activity.expire(at: 200) == [])
        #expect(activity.expire(at: 251) == ["busy"])
        #expect(activity.count == 0)
    }

    /// Unused for exactly the limit it is kept; a moment longer and the next sweep forgets it.
    @Test func aDeviceUnusedForExactlyTheLimitIsKept_aMomentLongerItIsForgotten() {
        var exactly = DeviceActivity(limit: 100, lastUsed: ["a": 0])
        var longer = DeviceActivity(limit: 100, lastUsed: ["a": 0])
        #expect(exactly.expire(at: 100) == [])
        #expect(exactly.count == 1)
        #expect(longer.expire(at: 100.001) == ["a"])
    }

    /// The sweep runs every tenth of the limit, but at least once a minute: due exactly then, not before.
    @Test(arguments: [(limit: 100.0, interval: 10.0), (limit: 1000.0, interval: 60.0), (limit: 2_592_000.0, interval: 60.0)])
    func theNextSweepIsDueATenthOfTheLimitOrAMinuteLater(_ limit: Double, _ interval: Double) {
        var activity = DeviceActivity(limit: limit, lastUsed: ["a": 0])
        // A sweep just before "a" goes idle; it is idle long before the next one is due.
        #expect(activity.expire(at: limit - 1) == [])
        #expect(activity.expire(at: limit - 1 + interval - 0.001) == [])
        #expect(activity.expire(at: limit - 1 + interval) == ["a"])
    }

    @Test func aRemovedDeviceIsNotExpiredLater() {
        var activity = DeviceActivity(limit: 10)
        activity.touch("a", at: 0)
        activity.remove("a")
        #expect(activity.expire(at: 100) == [])
    }

    @Test func touchingIfTrackedRenewsATrackedDeviceAndLeavesAnUntrackedOneOut() {
        var activity = DeviceActivity(limit: 100, lastUsed: ["a": 0])
        let tracked = activity.touchIfTracked("a", at: 90)
        let untracked = activity.touchIfTracked("b", at: 90)
        #expect(tracked && !untracked)
        #expect(activity.count == 1)
        // Renewed at 90: not idle at 150, idle after 190.
        let early = activity.expire(at: 150), late = activity.expire(at: 191)
        #expect(early == [] && late == ["a"])
    }
}
