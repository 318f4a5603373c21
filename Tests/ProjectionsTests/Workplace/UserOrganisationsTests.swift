import Foundation
import Testing
@testable import Workplace
@testable import Projections

/// A user's organisations (the `members` table turned around) list accepted members only, follow
/// acceptance and removal, and come out the same from a rebuild.
@Suite("Workplace read models: a user's organisations", .timeLimit(.minutes(2)))
struct UserOrganisationsTests {
    private typealias H = WorkplaceHistory

    @Test func onlyAcceptedMembershipsAreListedAndARemovalEndsOne() async throws {
        let fixture = try await WorkplaceFixture()
        defer { fixture.close() }
        try await fixture.append(H.register("org-1", "Acme"))
        try await fixture.append(H.register("org-2", "Bakery", creator: "dan", creatorName: "Dan"))
        try await fixture.append(H.register("org-3", "Cafe", creator: "dan", creatorName: "Dan"))
        try await fixture.append(H.join("org-2", "bob", name: "Bob", number: "B-1"))
        try await fixture.append(H.join("org-3", "bob", name: "Bob", number: "C-1"))
        try await fixture.append(H.request("org-1", "bob", name: "Bob", number: "A-1"))

        #expect(try fixture.queries.organisations(of: "ann") == ["org-1"], "the creator is a member")
        #expect(try fixture.queries.organisations(of: "dan") == ["org-2", "org-3"])
        #expect(try fixture.queries.organisations(of: "bob") == ["org-2", "org-3"], "a pending request is no membership")
        #expect(try fixture.queries.organisations(of: "nobody").isEmpty)
        #expect(try fixture.queries.organisations(of: "").isEmpty)
        #expect(try fixture.queries.organisations(of: String(repeating: "x", count: 600)).isEmpty)
        // A user id that is a prefix of another's lists only its own.
        #expect(try fixture.queries.organisations(of: "bo").isEmpty)

        #expect(try fixture.queries.shareAnOrganisation("bob", "dan"))
        #expect(try fixture.queries.shareAnOrganisation("dan", "bob"))
        #expect(try !fixture.queries.shareAnOrganisation("bob", "ann"), "bob only asked to join ann's organisation")
        #expect(try !fixture.queries.shareAnOrganisation("ann", "bob"))
        #expect(try !fixture.queries.shareAnOrganisation("ann", "nobody"))

        try await fixture.append(.memberRemoved(.init(organisationId: "org-2", userId: "bob", actorId: "dan")))
        #expect(try fixture.queries.organisations(of: "bob") == ["org-3"])
        try await fixture.append(.joinRequestRejected(.init(organisationId: "org-1", userId: "bob", actorId: "ann")))
        try await fixture.append(.memberRemoved(.init(organisationId: "org-3", userId: "bob", actorId: "bob")))
        #expect(try fixture.queries.organisations(of: "bob").isEmpty)
        #expect(try !fixture.queries.shareAnOrganisation("bob", "dan"))
        #expect(try fixture.queries.organisations(of: "dan") == ["org-2", "org-3"], "removing bob leaves the others")

        // Accepted later, after asking again: listed again.
        try await fixture.append(H.join("org-1", "bob", name: "Bob", number: "A-2"))
        #expect(try fixture.queries.organisations(of: "bob") == ["org-1"])
        #expect(try fixture.queries.shareAnOrganisation("bob", "ann"))
    }

    @Test func aRebuildListsTheSameOrganisations() async throws {
        let fixture = try await WorkplaceFixture()
        defer { fixture.close() }
        try await fixture.append(H.register("org-1", "Acme"))
        try await fixture.append(H.register("org-2", "Bakery", creator: "dan", creatorName: "Dan"))
        try await fixture.append(H.join("org-1", "bob", name: "Bob", number: "A-1"))
        try await fixture.append(H.join("org-2", "bob", name: "Bob", number: "B-1"))
        try await fixture.append(H.request("org-2", "cara", name: "Cara", number: "B-2"))
        try await fixture.append(.memberRemoved(.init(organisationId: "org-1", userId: "bob", actorId: "ann")))
        let users = ["ann", "bob", "cara", "dan"]
        let live = try users.map { try fixture.queries.organisations(of: $0) }
        #expect(live == [["org-1"], ["org-2"], [], ["org-2"]])

        try await fixture.engine.rebuild(WorkplaceProjections.organisations.name)
        #expect(try users.map { try fixture.queries.organisations(of: $0) } == live)
    }
}
