import Accounts
import EventSourcing
import Foundation
import Testing

@Suite("Account boundaries")
struct BoundaryTests {
    private let ownEvents = Boundary.Item(types: AccountEvent.typeNames, tags: ["user:cat"])

    @Test func registerReadsTheEmailAndUsernameClaimsAndTheAccount() {
        let boundary = AccountDecider.boundary(of: .register(Fixtures.register(email: " Cat@Example.org", username: "CatS")))
        #expect(boundary.items == [
            ownEvents,
            .init(types: ["account.registered", "account.emailChanged", "account.erased"], tags: ["email:cat@example.org"]),
            .init(types: ["account.registered", "account.usernameChanged", "account.erased"], tags: ["username:cats"]),
        ])
        let withoutUsername = AccountDecider.boundary(of: .register(Fixtures.register()))
        #expect(withoutUsername.items.count == 2)
    }

    @Test func updateProfileReadsNewClaimsOnlyWhenGiven() {
        #expect(AccountDecider.boundary(of: .updateProfile(.init(userId: "cat", displayName: "C"))).items == [ownEvents])
        let claims = AccountDecider.boundary(of: .updateProfile(.init(userId: "cat", username: "Kit", email: "KIT@example.org")))
        #expect(claims.items.flatMap(\.tags) == ["user:cat", "email:kit@example.org", "username:kit"])
    }

    @Test func credentialCommandsReadOnlyTheAccount() {
        let commands: [AccountCommand] = [
            .changePassword(.init(userId: "cat", newPasswordHash: Fixtures.hash("n"), newPasswordLength: 9)),
            .startSession(.init(userId: "cat", tokenHash: Fixtures.token("1"), expiresAt: Fixtures.hourLater)),
            .endSession(.init(userId: "cat", tokenHash: Fixtures.token("1"))),
            .requestPasswordReset(.init(userId: "cat", tokenHash: Fixtures.token("1"), sealedToken: Fixtures.sealed, expiresAt: Fixtures.hourLater)),
            .redeemPasswordReset(.init(userId: "cat", tokenHash: Fixtures.token("1"), newPasswordHash: Fixtures.hash("n"), newPasswordLength: 9)),
        ]
        for command in commands {
            #expect(AccountDecider.boundary(of: command).items == [ownEvents])
        }
    }

    /// What a decision reads must include every event it produces that another decision of the
    /// same value would need: each claim event carries the tags its own boundary names.
    @Test func producedClaimEventsMatchTheirBoundary() throws {
        let command = AccountCommand.register(Fixtures.register(username: "CatS"))
        let events = try AccountDecider.given([]).when(command, Fixtures.metadata).get()
        let boundary = AccountDecider.boundary(of: command)
        for item in boundary.items {
            #expect(events.contains { item.types.contains($0.typeName) && Set(item.tags).isSubset(of: $0.tags) })
        }
    }
}
