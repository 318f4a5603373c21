import Accounts
import EventLog
import EventSourcing
import Foundation

/// An albums log shaped like real use (`AlbumsLogGenerator`): accounts (a quarter of them
/// registered only after their first invitation), then one group after another, each created,
/// with members invited by address, mostly chat messages (about 70%) and photos of freshly
/// uploaded images (about 20%, a few deleted again, some re-uploads of another member's
/// image), avatars changed now and then, a member leaving, every tenth group deleted by its
/// last members leaving, and now and then an account moving to another address.
enum AlbumsLog {
    /// About one group per this many events.
    static let eventsPerGroup = 500
    /// Addresses invited to each group besides its creator's.
    static let invitedPerGroup = 8

    /// Appends about `events` account, blob and albums events (no fsync) and returns how many it
    /// wrote.
    static func fill(_ store: LMDBEventStore, events: Int, sealer: EventSealer = .plain) async throws -> Int {
        var batch = DomainEventBatch(store: store, sealer: sealer)
        var generator = AlbumsLogGenerator(events: events)
        while let (event, actor) = generator.next() { try await batch.add(event, by: actor) }
        return try await batch.finish()
    }
}
