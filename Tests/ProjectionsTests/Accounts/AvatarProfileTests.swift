import Accounts
import Foundation
import Testing
@testable import Projections

/// The profile shows the current avatar, from the accounts decider's `account.avatarChanged`.
@Suite("Accounts read model: avatar", .timeLimit(.minutes(3)))
struct AvatarProfileTests {
    private let first = String(repeating: "a", count: 64)
    private let second = String(repeating: "b", count: 64)

    @Test func theProfileShowsTheCurrentAvatar() async throws {
        let fixture = try await AccountsFixture()
        defer { fixture.close() }
        try await fixture.register("ann", email: "ann@example.org")
        try await fixture.register("bob", email: "bob@example.org")
        #expect(try fixture.queries.profile("ann")?.avatarBlobId == nil)

        try await fixture.run(.setAvatar(.init(userId: "ann", blobId: first)))
        #expect(try fixture.queries.profile("ann")?.avatarBlobId == first)
        try await fixture.run(.setAvatar(.init(userId: "ann", blobId: second)))
        #expect(try fixture.queries.profile("ann")?.avatarBlobId == second, "replaced")
        #expect(try fixture.queries.profile("bob")?.avatarBlobId == nil, "someone else's profile is untouched")
    }
}
