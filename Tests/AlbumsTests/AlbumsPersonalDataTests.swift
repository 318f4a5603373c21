import Crypto
import EventSourcing
import Foundation
import Testing
@testable import Albums

/// An in-memory keyring: one key per subject until it is erased.
private final class Keyring: PersonalDataKeyring, @unchecked Sendable {
    private let lock = NSLock()
    private var keys: [String: SymmetricKey] = [:]
    private var erased: Set<String> = []

    func dataKey(of subject: String, create: Bool) throws -> SymmetricKey? {
        lock.withLock {
            if erased.contains(subject) { return nil }
            if let key = keys[subject] { return key }
            guard create else { return nil }
            let key = SymmetricKey(size: .bits256)
            keys[subject] = key
            return key
        }
    }

    func blindTag(_ purpose: String, _ value: String) -> String { "blind-" + purpose + "-" + String(value.reversed()) }

    func erase(_ subject: String) {
        lock.withLock {
            keys[subject] = nil
            erased.insert(subject)
        }
    }
}

/// The albums' personal data (ADR 0004): sealed under whose it is, and read as placeholders once
/// that subject is erased while everyone else's stays.
@Suite("Albums personal data")
struct AlbumsPersonalDataTests {
    typealias F = Fixture

    static let message = AlbumsEvent.messagePosted(.init(
        groupId: F.summer, messageId: F.message, text: "Bring towels", authorId: F.bob, authorName: "Bob", postedAt: F.now))

    /// `events` as stored under `keyring` (nothing personal in the clear), then read back after
    /// erasing `subject`.
    private func roundTrip(_ events: [AlbumsEvent], erasing subject: String, keyring: Keyring = Keyring()) throws -> [AlbumsEvent] {
        let sealer = EventSealer(keyring: keyring)
        let stored = try events.map { ($0.typeName, try sealer.data(of: $0)) }
        for (_, data) in stored {
            let text = String(decoding: data, as: UTF8.self)
            for secret in ["example.org", "On the beach", "Bring towels", "\"Ann\"", "\"Bob\""] {
                #expect(!text.contains(secret), "\(secret) stored in the clear")
            }
        }
        keyring.erase(subject)
        return try stored.map { try #require(try AlbumsEvent.decode(typeName: $0.0, schemaVersion: 1, data: $0.1, opening: keyring)) }
    }

    @Test func erasingTheOwnerEmptiesTheirAddressPhotoTextsAndNameButKeepsTheGroupsName() throws {
        let events = [F.created(), F.photoAdded(), Self.message, F.left(F.ann), F.deleted(blobs: [F.beachBlob])]
        let read = try roundTrip(events, erasing: F.ann)
        guard case .groupCreated(let created) = read[0], case .photoAdded(let photo) = read[1],
              case .memberLeft(let left) = read[3] else { Issue.record("wrong events"); return }
        #expect(created.ownerEmail.isEmpty && created.name == "Summer" && created.ownerId == F.ann)
        #expect(photo.description.isEmpty && photo.addedByName == PersonalDataSeal.deletedUser)
        #expect(photo.blobId == F.beachBlob && photo.addedBy == F.ann && photo.addedAt == F.now)
        #expect(left.email.isEmpty && left.userId == F.ann)
        // Bob's message and the deletion (no personal data) read as they were.
        #expect(read[2] == Self.message && read[4] == events[4])
    }

    @Test func erasingTheAuthorEmptiesTheirMessage() throws {
        let read = try roundTrip([Self.message, F.photoAdded()], erasing: F.bob)
        guard case .messagePosted(let message) = read[0] else { Issue.record("no message"); return }
        #expect(message.text.isEmpty && message.authorName == PersonalDataSeal.deletedUser && message.authorId == F.bob)
        #expect(read[1] == F.photoAdded())
    }

    @Test func anInvitationsAddressIsSealedUnderAKeyedSubjectOfItsOwnAndErasedWithIt() throws {
        let keyring = Keyring()
        let subject = AlbumsNames.inviteeSubject(email: " Bob@Example.org", sealedBy: EventSealer(keyring: keyring))
        #expect(subject == "invitee_" + keyring.blindTag("invitee", "bob@example.org"))
        // The decider names the subject without a key; the sealing step stores the keyed one,
        // which is the one an erasure of the address names.
        let decided = AlbumsEvent.memberInvited(.init(
            groupId: F.summer, email: "bob@example.org", emailSubject: AlbumsNames.inviteeSubject(email: "bob@example.org"),
            inviterId: F.ann, invitedAt: F.now))
        let invited = AlbumsEvent.memberInvited(.init(
            groupId: F.summer, email: "bob@example.org", emailSubject: subject, inviterId: F.ann, invitedAt: F.now))
        // Erasing the inviter leaves the invitee's address; erasing the address's subject empties it.
        #expect(try roundTrip([decided], erasing: F.ann, keyring: keyring) == [invited])
        let read = try roundTrip([decided, F.created()], erasing: subject)
        guard case .memberInvited(let after) = read[0] else { Issue.record("no invitation"); return }
        #expect(after.email.isEmpty && after.emailSubject == subject && after.inviterId == F.ann)
        #expect(read[1] == F.created())
        // An erased address is no invitation.
        #expect(AlbumsDecider.fold([F.created()] + read).groups[F.summer]?.pendingInvitations == [])
    }

    @Test func aClaimedAddressIsTheClaimantsAndErasedWithThem() throws {
        let read = try roundTrip([F.claimed(F.bob)], erasing: F.bob)
        guard case .invitationClaimed(let claim) = read[0] else { Issue.record("no claim"); return }
        #expect(claim.email.isEmpty && claim.userId == F.bob && claim.groupId == F.summer)
        #expect(try roundTrip([F.claimed(F.bob)], erasing: F.ann) == [F.claimed(F.bob)])
    }

    @Test func withoutAKeyringTheSubjectIsThePlainDigestOfTheNormalisedAddress() {
        // SHA-256 of "bob@example.org".
        #expect(AlbumsNames.inviteeSubject(email: "  BOB@example.org ")
                == "invitee_" + SHA256.hash(data: Data("bob@example.org".utf8)).map { String(format: "%02x", $0) }.joined())
        #expect(AlbumsNames.inviteeSubject(email: "bob@example.org") != AlbumsNames.inviteeSubject(email: "cat@example.org"))
    }
}
