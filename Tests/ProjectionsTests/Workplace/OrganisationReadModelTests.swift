import Foundation
import Testing
@testable import Workplace
@testable import Projections

/// The organisation view, memberships, join requests and forms follow the workplace events.
@Suite("Workplace read models: organisations, members, forms", .timeLimit(.minutes(3)))
struct OrganisationReadModelTests {
    private typealias H = WorkplaceHistory
    private let start = WorkplaceFixture.start

    @Test func locationsKeepTheirOrderOfCreationThroughRenamesAndRemovals() async throws {
        let fixture = try await WorkplaceFixture()
        defer { fixture.close() }
        try await fixture.append(H.register("org-1", "Acme", locations: [("loc-1", "Head office"), ("loc-2", "Depot")]))
        try await fixture.append(
            .locationAdded(.init(organisationId: "org-1", location: .init(locationId: "loc-3", name: "Shop"), actorId: "ann")),
            .locationRenamed(.init(organisationId: "org-1", location: .init(locationId: "loc-1", name: "HQ"), actorId: "ann")),
            .locationRemoved(.init(organisationId: "org-1", locationId: "loc-2", actorId: "ann")))

        let organisation = try #require(try fixture.queries.organisation(id: "org-1"))
        #expect(organisation.organisationId == "org-1" && organisation.name == "Acme")
        #expect(organisation.locations == [.init(locationId: "loc-1", name: "HQ"), .init(locationId: "loc-3", name: "Shop")])
        #expect(try fixture.queries.organisation(id: "org-2") == nil)
        #expect(try fixture.queries.organisation(id: "") == nil)
        #expect(try fixture.queries.organisation(id: String(repeating: "x", count: 600)) == nil)
        // Events of an organisation never registered change nothing and fail nothing.
        try await fixture.append(.locationAdded(.init(organisationId: "ghost", location: .init(locationId: "l", name: "L"), actorId: "x")))
        #expect(try fixture.queries.organisation(id: "ghost") == nil)
    }

    @Test func aUserIsNothingThenPendingThenAMemberThenNothingAgain() async throws {
        let fixture = try await WorkplaceFixture()
        defer { fixture.close() }
        try await fixture.append(H.register("org-1", "Acme", locations: [("loc-1", "Head office"), ("loc-2", "Depot")]))
        try await fixture.append(H.register("org-2", "Other", creator: "zed", creatorName: "Zed"))

        let creator = OrganisationMember(userId: "ann", name: "Ann", employeeNumber: nil, locationId: "loc-1", admin: true)
        #expect(try fixture.queries.membership(of: "ann", in: "org-1") == .member(creator))
        #expect(try fixture.queries.membership(of: "ann", in: "org-2") == nil, "a membership is per organisation")
        #expect(try fixture.queries.membership(of: "bob", in: "org-1") == nil)

        try await fixture.append(H.request("org-1", "bob", name: "Bobby", number: "E-1", location: "loc-2", at: start + 60))
        let request = JoinRequestView(userId: "bob", name: "Bobby", employeeNumber: "E-1", locationId: "loc-2", requestedAt: start + 60)
        #expect(try fixture.queries.membership(of: "bob", in: "org-1") == .pending(request))
        #expect(try fixture.queries.pendingRequests(of: "org-1") == [request])
        #expect(try fixture.queries.pendingRequests(of: "org-2").isEmpty)

        // Accepted with corrected details: the request is gone, the member has the corrections.
        try await fixture.append(H.accept("org-1", "bob", name: "Bob Jones", number: "E-10", location: "loc-1"))
        let bob = OrganisationMember(userId: "bob", name: "Bob Jones", employeeNumber: "E-10", locationId: "loc-1", admin: false)
        #expect(try fixture.queries.membership(of: "bob", in: "org-1") == .member(bob))
        #expect(try fixture.queries.pendingRequests(of: "org-1").isEmpty)

        try await fixture.append(.memberChanged(.init(organisationId: "org-1", userId: "bob", locationId: "loc-2", admin: true, actorId: "ann")))
        let changed = OrganisationMember(userId: "bob", name: "Bob Jones", employeeNumber: "E-10", locationId: "loc-2", admin: true)
        #expect(try fixture.queries.membership(of: "bob", in: "org-1") == .member(changed))
        #expect(try fixture.queries.members(of: "org-1") == [creator, changed])

        try await fixture.append(.memberRemoved(.init(organisationId: "org-1", userId: "bob", actorId: "ann")))
        #expect(try fixture.queries.membership(of: "bob", in: "org-1") == nil)
        #expect(try fixture.queries.members(of: "org-1") == [creator])
        // A change for a removed member (the decider writes none) does not bring them back.
        try await fixture.append(.memberChanged(.init(organisationId: "org-1", userId: "bob", locationId: "loc-1", admin: false, actorId: "ann")))
        #expect(try fixture.queries.membership(of: "bob", in: "org-1") == nil)
    }

    @Test func aRejectedUserMayAskAgainAndRequestsListOldestFirst() async throws {
        let fixture = try await WorkplaceFixture()
        defer { fixture.close() }
        try await fixture.append(H.register("org-1", "Acme"))
        try await fixture.append(
            H.request("org-1", "cara", name: "Cara", number: "3", at: start + 300),
            H.request("org-1", "bob", name: "Bob", number: "2", at: start + 100),
            H.request("org-1", "dan", name: "Dan", number: "4", at: start + 200))
        try await fixture.append(.joinRequestRejected(.init(organisationId: "org-1", userId: "bob", actorId: "ann")))
        #expect(try fixture.queries.membership(of: "bob", in: "org-1") == nil)
        #expect(try fixture.queries.pendingRequests(of: "org-1").map(\.userId) == ["dan", "cara"])

        try await fixture.append(H.request("org-1", "bob", name: "Bob B", number: "20", at: start + 400))
        #expect(try fixture.queries.pendingRequests(of: "org-1").map(\.userId) == ["dan", "cara", "bob"])
        #expect(try fixture.queries.pendingRequests(of: "org-1").last?.name == "Bob B")
    }

    @Test func membersAreListedByNameIgnoringCaseThenId() async throws {
        let fixture = try await WorkplaceFixture()
        defer { fixture.close() }
        try await fixture.append(H.register("org-1", "Acme", creatorName: "zoë"))
        try await fixture.append(H.join("org-1", "u2", name: "bob", number: "2") + H.join("org-1", "u1", name: "Bob", number: "1")
            + H.join("org-1", "u3", name: "Ålex", number: "3") + H.join("org-1", "u4", name: "ALEX", number: "4"))
        #expect(try fixture.queries.members(of: "org-1").map(\.userId) == ["u4", "u1", "u2", "ann", "u3"])
        #expect(try fixture.queries.members(of: "org-1").first { $0.userId == "u3" }?.employeeNumber == "3")
        #expect(try fixture.queries.members(of: "nope").isEmpty)
    }

    @Test func formsFollowEveryEditAndDisappearWhenDeleted() async throws {
        let fixture = try await WorkplaceFixture()
        defer { fixture.close() }
        try await fixture.append(H.register("org-1", "Acme"), H.register("org-2", "Other", creator: "zed"))
        try await fixture.append(
            H.form("org-1", "form-1", name: "Yearly", questions: [("q1", "Punctual?", .rating), ("q2", "Kind?", .yesNo)]),
            H.form("org-1", "form-2", name: "apprentice", questions: [("q9", "Notes", .text)]),
            H.form("org-2", "form-3", name: "Elsewhere", questions: [("q5", "Q", .text)]))
        try await fixture.append(
            .formRenamed(.init(organisationId: "org-1", formId: "form-1", name: "Annual", actorId: "ann")),
            .questionAdded(.init(organisationId: "org-1", formId: "form-1", question: .init(questionId: "q3", text: "Best part?", kind: .text), actorId: "ann")),
            .questionRemoved(.init(organisationId: "org-1", formId: "form-1", questionId: "q1", actorId: "ann")),
            .questionsReordered(.init(organisationId: "org-1", formId: "form-1", questionIds: ["q3", "q2"], actorId: "ann")))

        let annual = ReviewFormView(formId: "form-1", name: "Annual", questions: [
            .init(questionId: "q3", text: "Best part?", kind: .text), .init(questionId: "q2", text: "Kind?", kind: .yesNo)])
        #expect(try fixture.queries.form(id: "form-1", in: "org-1") == annual)
        #expect(try fixture.queries.forms(of: "org-1").map(\.formId) == ["form-1", "form-2"], "by name ignoring case")
        #expect(try fixture.queries.form(id: "form-3", in: "org-1") == nil, "another organisation's form")
        #expect(try fixture.queries.form(id: "form-9", in: "org-1") == nil)

        try await fixture.append(.formDeleted(.init(organisationId: "org-1", formId: "form-1", actorId: "ann")))
        #expect(try fixture.queries.form(id: "form-1", in: "org-1") == nil)
        #expect(try fixture.queries.forms(of: "org-1").map(\.formId) == ["form-2"])
        #expect(try fixture.queries.forms(of: "org-2").map(\.formId) == ["form-3"])
        // An edit of a deleted form (the decider writes none) does not bring it back.
        try await fixture.append(.formRenamed(.init(organisationId: "org-1", formId: "form-1", name: "Back", actorId: "ann")))
        #expect(try fixture.queries.form(id: "form-1", in: "org-1") == nil)
    }

    /// Ids holding `/` or `%` would make one organisation's prefix match another's keys if they
    /// were not escaped.
    @Test func idsWithSlashesStayApart() async throws {
        let fixture = try await WorkplaceFixture()
        defer { fixture.close() }
        try await fixture.append(H.register("a", "A"), H.register("a/b", "AB", creator: "zed", creatorName: "Zed"))
        try await fixture.append(H.join("a", "b/c", name: "Slash", number: "1"))
        #expect(try fixture.queries.members(of: "a").map(\.userId) == ["ann", "b/c"])
        #expect(try fixture.queries.members(of: "a/b").map(\.userId) == ["zed"])
        #expect(try fixture.queries.membership(of: "c", in: "a/b") == nil)
        #expect(try fixture.queries.membership(of: "b/c", in: "a") != nil)
    }
}
