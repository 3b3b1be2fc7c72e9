/// Which etcd member a client asks first, and in what order one request tries the members
/// (docs/scaling.md#etcd-members). Pure: `EtcdClient` keeps the rotation under a lock and
/// carries out each request's attempts.
///
/// Rules: requests go to the preferred member; one that fails (no connection, no answer in
/// time, or etcd saying it is unavailable: no leader, an election) makes the next member
/// preferred, so that later requests skip it without waiting for it again. A request goes round
/// the members from the preferred one, each attempt waiting at most half a second — a healthy
/// member answers a keep-alive or a read in milliseconds and a write in a disk sync, while one
/// without a leader holds a request for a whole election time-out (1 s by default) and one cut
/// off never answers: a fresh request, elsewhere or once the election is over, is the way
/// through. After a full round it pauses briefly and goes round again, until the request's
/// deadline. One member: one attempt with the whole deadline, as a client of one etcd has
/// always done.
struct EtcdRotation: Sendable {
    /// How many members there are (at least one).
    let members: Int
    /// The member requests go to first.
    private(set) var preferred = 0

    /// Rotation over `members` members, starting at the first.
    init(members: Int) {
        self.members = max(1, members)
    }

    /// `member` failed: when it is the preferred one, the next becomes preferred. (When another
    /// request already moved on, its choice stands.)
    mutating func failed(_ member: Int) {
        if member == preferred { preferred = (member + 1) % members }
    }
}

/// The attempts of one request, from the member preferred when it starts.
struct EtcdAttempts: Sendable {
    /// One attempt: the member asked, how long to wait before asking it, and how long it may take.
    struct Attempt: Sendable {
        var member: Int
        var pause: Double
        var seconds: Double
    }

    /// The pause before going round the members again.
    static let pauseBetweenRounds = 0.1
    /// The longest an attempt waits when there is another member to ask.
    static let longestAttempt = 0.5
    let members: Int
    let first: Int
    /// How many attempts were made so far.
    private(set) var made = 0

    /// The attempts of a request over `members` members, from `first`.
    init(members: Int, first: Int) {
        self.members = max(1, members)
        self.first = first
    }

    /// The next attempt, given `left` seconds until the request's deadline; nil when there is no
    /// time left, or when the one member has been tried.
    mutating func next(secondsLeft left: Double) -> Attempt? {
        let position = made % members
        let pause = made > 0 && position == 0 ? Self.pauseBetweenRounds : 0
        guard left - pause > 0, members > 1 || made == 0 else { return nil }
        made += 1
        let seconds = members == 1 ? left : min(left - pause, Self.longestAttempt)
        return Attempt(member: (first + position) % members, pause: pause, seconds: seconds)
    }
}
