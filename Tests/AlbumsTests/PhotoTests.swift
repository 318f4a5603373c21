import EventSourcing
import Testing
@testable import Albums

/// Photos: members add images they uploaded with a description; only the adder deletes one.
@Suite("Albums photos")
struct PhotoTests {
    typealias D = AlbumsDecider
    typealias F = Fixture

    func add(_ photoId: String = F.photo, blob: String = F.beachBlob, description: String = "  On the beach\n",
             by userId: String = F.ann, as address: String? = nil) -> AlbumsCommand {
        .addPhoto(groupId: F.summer, photoId: photoId, blobId: blob, description: description, by: F.actor(userId, email: address))
    }

    func delete(_ photoId: String = F.photo, by userId: String) -> AlbumsCommand {
        .deletePhoto(groupId: F.summer, photoId: photoId, by: F.actor(userId))
    }

    @Test func aMemberAddsAPhotoWithATrimmedDescription() throws {
        #expect(try D.given(F.group).when(add(), F.by(F.ann)).get() == [F.photoAdded()])
        let bobs = try D.given(F.group).when(add(by: F.bob), F.by(F.bob)).get()
        #expect(bobs == [F.photoAdded(by: F.bob)])
    }

    @Test func theDescriptionIsRequiredAndBounded() throws {
        #expect(D.given(F.group).when(add(description: " \n "), F.by(F.ann)).fields == ["description"])
        #expect(D.given(F.group).when(add(description: F.huge), F.by(F.ann)).fields == ["description"])
        #expect(D.given(F.group).when(add(description: String(repeating: "d", count: 2_001)), F.by(F.ann)).fields == ["description"])
        let longest = try D.given(F.group).when(add(description: String(repeating: "d", count: 2_000)), F.by(F.ann)).get()
        #expect(longest.count == 1)
        // Several lines are a description's right.
        #expect(try D.given(F.group).when(add(description: "Beach\nSunset"), F.by(F.ann)).get().count == 1)
    }

    @Test func theBlobIdMustBeASHA256InLowercaseHex() {
        for bad in ["", "blob-1", F.beachBlob.uppercased(), String(F.beachBlob.dropLast()), F.beachBlob + "a",
                    "../../etc/passwd" + String(F.beachBlob.dropFirst(16)), String(F.beachBlob.dropLast()) + "g"] {
            #expect(D.given(F.group).when(add(blob: bad), F.by(F.ann)).fields == ["blobId"], "\(bad) accepted")
        }
        // Every field problem at once.
        #expect(D.given(F.group).when(add(blob: "x", description: ""), F.by(F.ann)).fields == ["blobId", "description"])
    }

    @Test func outsidersAndFormerMembersCannotAdd() {
        #expect(D.given(F.group).when(add(by: F.cat), F.by(F.cat)).failure == .groupNotFound)
        #expect(D.given(F.group + [F.left(F.bob)]).when(add(by: F.bob), F.by(F.bob)).failure == .groupNotFound)
        #expect(D.given([]).when(add(), F.by(F.ann)).failure == .groupNotFound)
    }

    @Test func aPhotoIdIsNeverReused() {
        #expect(D.given(F.group + [F.photoAdded()]).when(add(), F.by(F.ann)).failure == .idTaken)
        let deleted = AlbumsEvent.photoDeleted(.init(groupId: F.summer, photoId: F.photo, blobId: F.beachBlob, actorId: F.ann))
        #expect(D.given(F.group + [F.photoAdded(), deleted]).when(add(), F.by(F.ann)).failure == .idTaken)
    }

    @Test func aGroupHasAtMost10000LivePhotos() throws {
        let ids = (0..<AlbumsLimits.photosPerGroupMax).map { "photo-\($0)" }
        let full = F.group + ids.map { F.photoAdded($0) }
        let refusal = D.given(full).when(add(F.secondPhoto), F.by(F.ann)).failure
        #expect(refusal == .limitReached(.photos) && refusal?.kind == .conflict)
        let deleted = AlbumsEvent.photoDeleted(.init(groupId: F.summer, photoId: ids[0], blobId: F.beachBlob, actorId: F.ann))
        #expect(try D.given(full + [deleted]).when(add(F.secondPhoto), F.by(F.ann)).get().count == 1)
    }

    @Test func theAdderDeletesTheirPhotoOnce() throws {
        let events = try D.given(F.group + [F.photoAdded(blob: F.duneBlob)]).when(delete(by: F.ann), F.by(F.ann)).get()
        #expect(events == [.photoDeleted(.init(groupId: F.summer, photoId: F.photo, blobId: F.duneBlob, actorId: F.ann))])
        let again = D.given(F.group + [F.photoAdded()] + events).when(delete(by: F.ann), F.by(F.ann)).failure
        #expect(again == .photoNotFound && again?.code == "photo_not_found" && again?.kind == .notFound)
        #expect(D.given(F.group).when(delete(F.unknown, by: F.ann), F.by(F.ann)).failure == .photoNotFound)
    }

    @Test func anotherMembersPhotoIsNotTheirsToDelete() {
        let refusal = D.given(F.group + [F.photoAdded(by: F.bob)]).when(delete(by: F.ann), F.by(F.ann)).failure
        #expect(refusal == .notTheOwner && refusal?.code == "not_the_owner" && refusal?.kind == .forbidden)
    }

    @Test func outsidersLearnNothingOfAPhoto() {
        // Not notTheOwner nor photoNotFound: the group does not exist for them.
        #expect(D.given(F.group + [F.photoAdded()]).when(delete(by: F.cat), F.by(F.cat)).failure == .groupNotFound)
        #expect(D.given(F.group).when(delete(F.unknown, by: F.cat), F.by(F.cat)).failure == .groupNotFound)
    }
}
