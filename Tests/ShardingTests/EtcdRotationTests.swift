@testable import Sharding
import Testing
import TestTiers

/// Which etcd member a request goes to, and for how long (`EtcdRotation`, `EtcdAttempts`), and
/// which of etcd's answers send it to another member.
@Suite(.tags(.unit)) struct EtcdRotationTests {
    @Test func aRequestGoesRoundFromThePreferredMemberEachAttemptAtMostHalfASecond() {
        var attempts = EtcdAttempts(members: 3, first: 1)
        #expect(Self.attempt(attempts.next(secondsLeft: 2), is: 1, after: 0, for: 0.5))
        #expect(Self.attempt(attempts.next(secondsLeft: 1.9), is: 2, after: 0, for: 0.5))
        #expect(Self.attempt(attempts.next(secondsLeft: 1.4), is: 0, after: 0, for: 0.5))
        // A full round failed: a pause (an election), then round again while time is left.
        #expect(Self.attempt(attempts.next(secondsLeft: 0.9), is: 1, after: 0.1, for: 0.5))
        #expect(Self.attempt(attempts.next(secondsLeft: 0.3), is: 2, after: 0, for: 0.3))
        #expect(attempts.next(secondsLeft: 0) == nil)
        var late = EtcdAttempts(members: 2, first: 0)
        _ = late.next(secondsLeft: 1)
        _ = late.next(secondsLeft: 1)
        #expect(late.next(secondsLeft: 0.05) == nil, "no time for the pause before a new round")
    }

    @Test func oneMemberIsAskedOnceWithTheWholeDeadline() {
        var attempts = EtcdAttempts(members: 1, first: 0)
        #expect(Self.attempt(attempts.next(secondsLeft: 2), is: 0, after: 0, for: 2))
        #expect(attempts.next(secondsLeft: 1.9) == nil)
    }

    @Test func aFailedMemberPassesThePreferenceOnOnce() {
        var rotation = EtcdRotation(members: 3)
        #expect(rotation.preferred == 0)
        rotation.failed(0)
        #expect(rotation.preferred == 1)
        // Another request that was already on its way to member 0 fails too: 1 stays preferred.
        rotation.failed(0)
        #expect(rotation.preferred == 1)
        rotation.failed(1)
        rotation.failed(2)
        #expect(rotation.preferred == 0)
    }

    @Test func unavailableAnswersGoToAnotherMemberOthersDoNot() {
        #expect(EtcdClient.isUnavailable(status: 503, code: 14, message: "etcdserver: no leader"))
        #expect(EtcdClient.isUnavailable(status: 200, code: 14, message: "etcdserver: request timed out"))
        #expect(EtcdClient.isUnavailable(status: 504, code: nil, message: "context deadline exceeded"))
        #expect(EtcdClient.isUnavailable(status: 500, code: 2, message: "raft proposal dropped"))
        #expect(!EtcdClient.isUnavailable(status: 400, code: 3, message: "etcdserver: key is not provided"))
        #expect(!EtcdClient.isUnavailable(status: 404, code: 5, message: "etcdserver: requested lease not found"))
        #expect(!EtcdClient.isUnavailable(status: 200, code: 5, message: "etcdserver: requested lease not found"))
        #expect(!EtcdClient.isUnavailable(status: 500, code: 8, message: "etcdserver: mvcc: database space exceeded"))
    }

    /// Whether `attempt` asks `member` after `pause` s for `seconds` s (to a microsecond).
    private static func attempt(_ attempt: EtcdAttempts.Attempt?, is member: Int, after pause: Double, for seconds: Double) -> Bool {
        guard let attempt else { return false }
        return attempt.member == member && abs(attempt.pause - pause) < 1e-6 && abs(attempt.seconds - seconds) < 1e-6
    }
}
