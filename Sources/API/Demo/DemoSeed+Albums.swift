import Albums
import BlobStore
import Blobs
import Foundation

/// What the demo's albums part made: the ids the README's curl walk-through uses.
public struct DemoAlbums: Sendable, Equatable {
    /// Ann's group, of which Bob is a member.
    public var groupId: String
    /// `DemoSeed.groupName`.
    public var groupName: String
    /// The photos, oldest first: Ann's, then Bob's.
    public var photoIds: [String]
    /// Their images, in the same order.
    public var blobIds: [String]
    /// Chat messages posted.
    public var messages: Int
}

extension DemoSeed {
    /// The demo group's name.
    public static let groupName = "Weekend in Zandvoort"
}

extension DemoSeeder {
    /// Ann's photo group: she creates it and invites Bob's address, which Bob (verified, as
    /// every demo account) claims at once, as the invitation route does; each uploads a small
    /// generated image through the blob store and adds it as a photo, and they chat.
    func seedAlbums(ann: String, bob: String) async throws -> DemoAlbums {
        let annActor = try albumsActor(ann), bobActor = try albumsActor(bob)
        let groupId = Routes.newID()
        try await run(.createGroup(groupId: groupId, name: DemoSeed.groupName, ownerId: ann, by: annActor), as: ann)
        try await run(.invite(groupId: groupId, email: bobActor.email, by: annActor), as: ann)
        try await AlbumsInvitationClaims(runtime: runtime).claimInvitation(of: bobActor.email, in: groupId)

        let images = [
            (by: ann, actor: annActor, image: SolidPNG.image(width: 16, height: 12, red: 0x2E, green: 0x86, blue: 0xC1),
             description: "The sea at Zandvoort, bluer than expected."),
            (by: bob, actor: bobActor, image: SolidPNG.image(width: 12, height: 16, red: 0xF4, green: 0xD0, blue: 0x3F),
             description: "Sand. A lot of sand."),
        ]
        var photoIds: [String] = [], blobIds: [String] = []
        for image in images {
            let blobId = try await upload(image.image, by: image.by)
            let photoId = Routes.newID()
            try await run(.addPhoto(groupId: groupId, photoId: photoId, blobId: blobId, description: image.description, by: image.actor),
                          as: image.by)
            photoIds.append(photoId)
            blobIds.append(blobId)
        }
        let messages = [
            (ann, annActor, "I put up the first photo. Who brought the sunscreen?"),
            (bob, bobActor, "Not me. Mine is the one with all the sand."),
            (ann, annActor, "Same time next year?"),
        ]
        for (user, actor, text) in messages {
            try await run(.postMessage(groupId: groupId, messageId: Routes.newID(), text: text, by: actor), as: user)
        }
        return DemoAlbums(groupId: groupId, groupName: DemoSeed.groupName, photoIds: photoIds, blobIds: blobIds, messages: messages.count)
    }

    /// Stores `image` and records its upload by `user`, as `POST /v1/blobs` does.
    private func upload(_ image: Data, by user: String) async throws -> String {
        let upload = try runtime.blobs.beginUpload()
        try image.withUnsafeBytes { try upload.append($0) }
        let blob = try upload.finish()
        _ = try await runner.run(BlobDecider.self, .recordUpload(blobId: blob.blobId, type: blob.type, bytes: blob.bytes), actor: user)
        return blob.blobId
    }

    /// The account as the albums decider sees it: its current address and name.
    private func albumsActor(_ userId: String) throws -> AlbumsCommand.Actor {
        guard let profile = try runtime.accounts.profile(userId) else { throw AccountsService.accountNotFound }
        return AlbumsCommand.Actor(email: profile.email, displayName: profile.displayName)
    }

    /// Runs an albums command as `actor`; the read models include it on return.
    private func run(_ command: AlbumsCommand, as actor: String) async throws {
        _ = try await runner.run(AlbumsDecider.self, command, actor: actor)
    }
}
