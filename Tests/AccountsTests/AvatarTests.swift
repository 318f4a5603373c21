@testable import Accounts
import EventSourcing
import Foundation
import Testing

/// The avatar: an uploaded image's id on the profile, gone with the account.
@Suite("Account avatar")
struct AvatarTests {
    private let metadata = Fixtures.metadata
    private static let beach = String(repeating: "0123456789abcdef", count: 4)
    private static let dune = String(repeating: "fedcba9876543210", count: 4)

    private func setAvatar(_ blobId: String, of userId: String = "ann") -> AccountCommand {
        .setAvatar(.init(userId: userId, blobId: blobId))
    }

    @Test func anAccountSetsAndChangesItsAvatar() throws {
        let events = try AccountDecider.given([Fixtures.annRegistered]).when(setAvatar(Self.beach), metadata).get()
        #expect(events == [.avatarChanged(.init(userId: "ann", blobId: Self.beach))])
        #expect(events.first?.typeName == "account.avatarChanged" && events.first?.tags == ["user:ann"])
        let state = AccountDecider.fold([Fixtures.annRegistered] + events)
        #expect(state.accounts["ann"]?.avatarBlobId == Self.beach)
        let changed = try AccountDecider.given([Fixtures.annRegistered] + events).when(setAvatar(Self.dune), metadata).get()
        #expect(changed == [.avatarChanged(.init(userId: "ann", blobId: Self.dune))])
    }

    @Test func theSameAvatarAgainChangesNothing() throws {
        let given = [Fixtures.annRegistered, AccountEvent.avatarChanged(.init(userId: "ann", blobId: Self.beach))]
        #expect(try AccountDecider.given(given).when(setAvatar(Self.beach), metadata).get().isEmpty)
    }

    @Test func theBlobIdMustBeASHA256InLowercaseHex() {
        for bad in ["", "avatar.png", Self.beach.uppercased(), String(Self.beach.dropLast()), Self.beach + "0",
                    String(Self.beach.dropLast()) + "z", "../" + String(Self.beach.dropFirst(3))] {
            let failure = AccountDecider.given([Fixtures.annRegistered]).when(setAvatar(bad), metadata).failure
            #expect(failure?.fieldErrors.map(\.field) == ["blobId"], "\(bad) accepted")
            #expect(failure?.code == "validation_failed")
        }
    }

    @Test func anUnknownOrErasedAccountHasNoAvatarToSet() throws {
        #expect(AccountDecider.given([]).when(setAvatar(Self.beach), metadata).failure == .accountNotFound)
        let erased = AccountEvent.erased(.init(userId: "ann", releasedTags: ["email:ann@example.org", "username:annb"]))
        let history = [Fixtures.annRegistered, .avatarChanged(.init(userId: "ann", blobId: Self.beach)), erased]
        #expect(AccountDecider.given(history).when(setAvatar(Self.dune), metadata).failure == .accountNotFound)
        // The erased account's avatar is gone from the state with it.
        #expect(AccountDecider.fold(history).accounts["ann"] == nil)
    }

    @Test func erasureForgetsTheAvatarSoANewAccountUnderTheSameIdStartsWithout() throws {
        // Only reachable with a reused id, which the API never makes; it shows the fold drops it.
        let erased = AccountEvent.erased(.init(userId: "ann", releasedTags: []))
        let history = [Fixtures.annRegistered, .avatarChanged(.init(userId: "ann", blobId: Self.beach)), erased, Fixtures.annRegistered]
        #expect(AccountDecider.fold(history).accounts["ann"]?.avatarBlobId == nil)
    }

    @Test func theAvatarIsDecidedOnTheAccountsOwnEventsOnly() {
        let boundary = AccountDecider.boundary(of: setAvatar(Self.beach))
        #expect(boundary == Boundary([.init(types: AccountEvent.typeNames, tags: ["user:ann"])]))
        #expect(AccountEvent.typeNames.contains("account.avatarChanged"))
    }
}
