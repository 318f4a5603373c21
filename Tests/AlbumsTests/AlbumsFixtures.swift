import EventSourcing
import Foundation
@testable import Albums

/// Ids, people and common events shared by the albums tests. Ids look like the UUIDs the API
/// generates; the decider treats them as opaque strings.
///
/// Ann created the group `summer` ("Summer") under ann@example.org and invited bob@example.org,
/// whose account Bob holds and claimed the invitation with; Cat (cat@example.org) is an outsider. Blob ids are SHA-256 shaped.
enum Fixture {
    static let summer = "0193c0de-0000-7000-8000-00000000000a"
    static let winter = "0193c0de-0000-7000-8000-00000000000b"
    static let ann = "0193c0de-0000-7000-8000-0000000000a1"
    static let bob = "0193c0de-0000-7000-8000-0000000000b2"
    static let cat = "0193c0de-0000-7000-8000-0000000000c3"
    static let photo = "0193c0de-0000-7000-8000-000000000101"
    static let secondPhoto = "0193c0de-0000-7000-8000-000000000102"
    static let message = "0193c0de-0000-7000-8000-000000000201"
    static let unknown = "0193c0de-0000-7000-8000-000000000999"
    static let beachBlob = String(repeating: "0123456789abcdef", count: 4)
    static let duneBlob = String(repeating: "fedcba9876543210", count: 4)
    /// Millisecond-exact, so it survives the JSON round trip unchanged.
    static let now = Date(timeIntervalSince1970: 1_790_000_000.25)
    /// 100 KB of letters: over every text limit of the app.
    static let huge = String(repeating: "x", count: 100_000)

    /// The metadata of a command by `actor` at `now`.
    static func by(_ actor: String, at time: Date = now) -> CommandMetadata {
        CommandMetadata(actor: actor, now: time, commandID: UUID())
    }

    static func email(_ userId: String) -> String {
        switch userId {
        case ann: "ann@example.org"
        case bob: "bob@example.org"
        case cat: "cat@example.org"
        default: "someone@example.org"
        }
    }

    static func name(_ userId: String) -> String {
        switch userId {
        case ann: "Ann"
        case bob: "Bob"
        case cat: "Cat"
        default: "Someone"
        }
    }

    /// `userId` as the API finds their account now; `email` overrides their address.
    static func actor(_ userId: String, email: String? = nil) -> AlbumsCommand.Actor {
        .init(email: email ?? Self.email(userId), displayName: name(userId))
    }

    static func created(_ groupId: String = summer, name: String = "Summer", by userId: String = ann) -> AlbumsEvent {
        .groupCreated(.init(groupId: groupId, name: name, ownerId: userId, ownerEmail: email(userId), createdAt: now))
    }

    static func invited(_ email: String, to groupId: String = summer, by userId: String = ann) -> AlbumsEvent {
        .memberInvited(.init(groupId: groupId, email: email, emailSubject: AlbumsNames.inviteeSubject(email: email),
                             inviterId: userId, invitedAt: now))
    }

    /// `userId`, who verified `address` (theirs by default), claims its invitation.
    static func claimed(_ userId: String, address: String? = nil, in groupId: String = summer) -> AlbumsEvent {
        .invitationClaimed(.init(groupId: groupId, email: address ?? email(userId), userId: userId, claimedAt: now))
    }

    static func photoAdded(_ photoId: String = photo, blob blobId: String = beachBlob, by userId: String = ann) -> AlbumsEvent {
        .photoAdded(.init(groupId: summer, photoId: photoId, blobId: blobId, description: "On the beach", addedBy: userId,
                          addedByName: name(userId), addedAt: now))
    }

    static func left(_ userId: String, from groupId: String = summer) -> AlbumsEvent {
        .memberLeft(.init(groupId: groupId, email: email(userId), userId: userId, leftAt: now))
    }

    static func deleted(_ groupId: String = summer, name: String = "Summer", by ownerId: String = ann, blobs: [String] = []) -> AlbumsEvent {
        .groupDeleted(.init(groupId: groupId, name: name, ownerId: ownerId, blobIds: blobs, deletedAt: now))
    }

    /// Summer with Ann and Bob as members.
    static let group: [AlbumsEvent] = [created(), invited(email(bob)), claimed(bob)]
}

extension Result where Failure == AlbumsError {
    /// The field names of a validation refusal, in the order they were checked; empty otherwise.
    var fields: [String] {
        failure?.fieldErrors.map(\.field) ?? []
    }
}
