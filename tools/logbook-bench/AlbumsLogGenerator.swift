import Accounts
import Albums
import Blobs
import EventSourcing
import Foundation

/// The events of `AlbumsLog`, one at a time, from a seeded generator: the same log for the same
/// size on every run. Each event is one the deciders would make of a command its user could
/// send at that point: actors are members by their current address, photos use blobs their
/// adder uploaded, only a photo's adder deletes it, and a group is deleted with its last
/// member's leaving.
struct AlbumsLogGenerator {
    var random = SplitMix64(seed: 0xA1B0)
    /// Events still to make, about.
    var budget: Int
    /// Events queued by the step that made them, each with its actor, handed out in order.
    var queue: [(event: any DomainEvent, actor: String)] = []
    var queued = 0
    var now = Date(timeIntervalSince1970: 1_800_000_000)

    /// Every account's user id is `u<n>`; its current address, once registered.
    var emails: [Int: String] = [:]
    let users: Int
    var nextUser = 0
    var groupIndex = 0
    var blobCount = 0
    /// Blob ids each user uploaded, the last few: a re-upload takes another member's.
    var uploads: [Int: [String]] = [:]

    init(events: Int) {
        budget = events
        let groups = max(1, events / AlbumsLog.eventsPerGroup)
        users = max(AlbumsLog.invitedPerGroup * 2, groups * 3)
    }

    /// The next event and its actor (the user id whose command it was); nil once the budget is
    /// spent.
    mutating func next() -> (event: any DomainEvent, actor: String)? {
        while queued == queue.count {
            guard budget > 0 else { return nil }
            queue.removeAll(keepingCapacity: true)
            queued = 0
            if nextUser < users { registerUpFront() } else { group() }
        }
        let event = queue[queued]
        queued += 1
        return event
    }

    mutating func emit(_ event: any DomainEvent, by user: Int) {
        queue.append((event, "u\(user)"))
        budget -= 1
        now += 60
    }

    /// Three accounts in four are registered before any group; the rest when first invited.
    private mutating func registerUpFront() {
        let user = nextUser
        nextUser += 1
        if user % 4 != 3 { register(user) }
    }

    mutating func register(_ user: Int) {
        let email = "u\(user)@example.org"
        emails[user] = email
        emit(AccountEvent.registered(.init(
            userId: "u\(user)", email: email, passwordHash: Self.hash, displayName: "User \(user)")), by: user)
    }

    mutating func randomUser() -> Int { Int(random.next() % UInt64(users)) }

    /// A new blob id, 64 lowercase hex digits, as a SHA-256 spells it.
    mutating func newBlobId() -> String {
        blobCount += 1
        let hex = String(blobCount, radix: 16)
        return String(repeating: "0", count: 64 - hex.count) + hex
    }

    static let hash = PasswordHash(bcrypt: "$2b$04$" + String(repeating: "a", count: 53))!
}
