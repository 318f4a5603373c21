@testable import Accounts
@testable import Albums
import Blobs
import EventLog
import EventSourcing
import Foundation
import Testing
import Workplace
@testable import Projections

/// A real log with the albums and blob read models in a temporary directory, fed with events as
/// the deciders write them (built here from the payloads, so that every history, an invitation
/// before its account's registration included, can be told exactly).
final class AlbumsFixture {
    let directory = NSTemporaryDirectory() + "projection-albums-" + UUID().uuidString
    let log: LMDBEventStore
    let engine: ProjectionEngine<LMDBEventStore>
    let albums: AlbumsQueries<LMDBEventStore>
    let blobs: BlobQueries<LMDBEventStore>
    private let live: Task<Void, any Error>

    /// With `personalData`, events are sealed with it when appended and the engine opens them.
    init(personalData: (any PersonalDataKeyring)? = nil) async throws {
        var options = EventStoreOptions()
        options.unsafeNoSync = true
        log = try LMDBEventStore(dataDirectory: directory, options: options)
        engine = try ProjectionEngine(
            log: log, dataDirectory: directory, projections: AlbumsProjections.all + BlobProjections.all, sync: .unsafeNever,
            personalData: personalData)
        albums = AlbumsQueries(engine: engine)
        blobs = BlobQueries(engine: engine)
        #expect(try await engine.prepare().isEmpty)
        live = Task { [engine] in try await engine.runLive() }
    }

    /// Appends `events` as one request by `actor` and waits until they are projected; returns
    /// the position of the last.
    @discardableResult
    func append<E: DomainEvent>(_ events: E..., by actor: String = "tester") async throws -> UInt64 {
        try await appendProjected(events, by: actor, to: log, engine)
    }

    /// Appends `events` as one request by `actor` and waits until they are projected.
    @discardableResult
    func append<E: DomainEvent>(_ events: [E], by actor: String = "tester") async throws -> UInt64 {
        try await appendProjected(events, by: actor, to: log, engine)
    }

    func close() {
        live.cancel()
        log.close()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// Albums, account and blob events with readable defaults, as the deciders would write them.
enum AlbumsHistory {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func blob(_ n: Int) -> String { String(repeating: String(n % 10), count: 64) }

    static func register(_ userId: String, email: String? = nil, name: String? = nil) -> AccountEvent {
        .registered(.init(
            userId: userId, email: email ?? "\(userId)@example.org", passwordHash: Secrets.hash("a"),
            displayName: name ?? userId.capitalized))
    }

    static func create(_ groupId: String, _ name: String, owner: String = "ann", email: String? = nil, at date: Date = start) -> AlbumsEvent {
        .groupCreated(.init(groupId: groupId, name: name, ownerId: owner, ownerEmail: email ?? "\(owner)@example.org", createdAt: date))
    }

    static func invite(_ groupId: String, _ email: String, by inviter: String = "ann") -> AlbumsEvent {
        .memberInvited(.init(groupId: groupId, email: email, emailSubject: "invitee_" + SHA256Hex.digest(email), inviterId: inviter, invitedAt: start))
    }

    /// `userId`, who verified `email` (theirs by default), claims its invitation in `groupId`.
    static func claim(_ groupId: String, _ userId: String, email: String? = nil) -> AlbumsEvent {
        .invitationClaimed(.init(groupId: groupId, email: email ?? "\(userId)@example.org", userId: userId, claimedAt: start))
    }

    /// `userId` verified their e-mail of now (`email`, theirs by default).
    static func verify(_ userId: String, email: String? = nil) -> AccountEvent {
        .emailVerified(.init(userId: userId, email: email ?? "\(userId)@example.org"))
    }

    static func leave(_ groupId: String, _ userId: String, email: String? = nil) -> AlbumsEvent {
        .memberLeft(.init(groupId: groupId, email: email ?? "\(userId)@example.org", userId: userId, leftAt: start))
    }

    static func photo(_ groupId: String, _ photoId: String, blob: String, by userId: String = "ann", at date: Date = start) -> AlbumsEvent {
        .photoAdded(.init(
            groupId: groupId, photoId: photoId, blobId: blob, description: "About \(photoId)", addedBy: userId,
            addedByName: userId.capitalized, addedAt: date))
    }

    static func deletePhoto(_ groupId: String, _ photoId: String, blob: String, by userId: String = "ann") -> AlbumsEvent {
        .photoDeleted(.init(groupId: groupId, photoId: photoId, blobId: blob, actorId: userId))
    }

    static func message(_ groupId: String, _ messageId: String, by userId: String = "ann", at date: Date = start) -> AlbumsEvent {
        .messagePosted(.init(
            groupId: groupId, messageId: messageId, text: "Text of \(messageId)", authorId: userId, authorName: userId.capitalized,
            postedAt: date))
    }

    static func delete(_ groupId: String, _ name: String, owner: String = "ann", blobs: [String] = []) -> AlbumsEvent {
        .groupDeleted(.init(groupId: groupId, name: name, ownerId: owner, blobIds: blobs, deletedAt: start))
    }

    static func upload(_ blobId: String, by userId: String, at date: Date = start) -> BlobEvent {
        .uploaded(.init(blobId: blobId, contentType: ImageType.png.rawValue, bytes: 1_234, uploaderId: userId, uploadedAt: date))
    }
}
