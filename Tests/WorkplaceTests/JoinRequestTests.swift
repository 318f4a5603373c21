import EventSourcing
import Testing
@testable import Workplace

/// Asking to join, and admins accepting (with corrections) or rejecting.
@Suite("Workplace join requests")
struct JoinRequestTests {
    typealias D = WorkplaceDecider
    typealias F = Fixture

    func ask(at locationId: String = F.hq, number: String = " 42 ", name: String = " Dan ") -> WorkplaceCommand {
        .requestToJoin(organisationId: F.acme, locationId: locationId, employeeNumber: number, name: name)
    }

    func accept(_ userId: String = F.cat, _ correction: WorkplaceCommand.JoinCorrection = .init()) -> WorkplaceCommand {
        .acceptJoinRequest(organisationId: F.acme, userId: userId, correction: correction)
    }

    func reject(_ userId: String = F.cat) -> WorkplaceCommand {
        .rejectJoinRequest(organisationId: F.acme, userId: userId)
    }

    @Test func anOutsiderAsksToJoin() throws {
        let events = try D.given(F.organisation).when(ask(), F.by(F.dan)).get()
        #expect(events == [.joinRequested(.init(
            organisationId: F.acme, userId: F.dan, locationId: F.hq, employeeNumber: "42", name: "Dan", requestedAt: F.now))])
        let organisation = D.fold(F.organisation + events).organisations[F.acme]
        #expect(organisation?.viewer(F.dan).standing == .pending(locationId: F.hq))
        #expect(organisation?.viewer(F.dan).isMember == false)
    }

    @Test func askingNeedsAnExistingLocationAndValidFields() {
        #expect(D.given(F.organisation).when(ask(at: F.shop), F.by(F.dan)).failure == .locationNotFound)
        let result = D.given(F.organisation).when(ask(number: String(repeating: "9", count: 41), name: F.huge), F.by(F.dan))
        #expect(result.fields == ["employeeNumber", "name"])
        #expect(D.given(F.organisation).when(ask(number: "  ", name: ""), F.by(F.dan)).fields == ["employeeNumber", "name"])
        #expect(throws: Never.self) {
            try D.given(F.organisation).when(ask(number: String(repeating: "9", count: 40)), F.by(F.dan)).get()
        }
    }

    @Test func aMemberCannotAskAgain() {
        let failure = D.given(F.organisation).when(ask(), F.by(F.bob)).failure
        #expect(failure == .alreadyAMember && failure?.code == "already_a_member" && failure?.kind == .conflict)
        #expect(D.given(F.organisation).when(ask(), F.by(F.ann)).failure == .alreadyAMember)
    }

    @Test func oneOpenRequestPerUser() {
        let failure = D.given(F.organisation).when(ask(at: F.depot), F.by(F.cat)).failure
        #expect(failure == .requestPending && failure?.code == "request_pending" && failure?.kind == .conflict)
    }

    @Test func aRejectedOrRemovedUserMayAskAgain() throws {
        let rejected = F.organisation + [F.rejected(F.cat)]
        #expect(try D.given(rejected).when(ask(), F.by(F.cat)).get().count == 1)
        let removed = F.organisation + [F.removed(F.bob)]
        #expect(try D.given(removed).when(ask(), F.by(F.bob)).get().count == 1)
        let left = F.organisation + [F.removed(F.bob, by: F.bob)]
        #expect(try D.given(left).when(ask(), F.by(F.bob)).get().count == 1)
    }

    @Test func anAdminAcceptsARequestAsItWas() throws {
        let events = try D.given(F.organisation).when(accept(), F.by(F.ann)).get()
        #expect(events == [.joinRequestAccepted(.init(
            organisationId: F.acme, userId: F.cat, locationId: F.hq, employeeNumber: "E-Cat", name: "Cat", actorId: F.ann,
            acceptedAt: F.now))])
        let organisation = try #require(D.fold(F.organisation + events).organisations[F.acme])
        #expect(organisation.requests[F.cat] == nil)
        #expect(organisation.members[F.cat] == .init(userId: F.cat, name: "Cat", employeeNumber: "E-Cat", locationId: F.hq, isAdmin: false))
    }

    @Test func anAdminCorrectsTheDetailsOnAccepting() throws {
        let events = try D.given(F.organisation)
            .when(accept(F.cat, .init(name: " Catherine ", employeeNumber: " 007 ", locationId: F.depot)), F.by(F.ann)).get()
        #expect(events == [.joinRequestAccepted(.init(
            organisationId: F.acme, userId: F.cat, locationId: F.depot, employeeNumber: "007", name: "Catherine",
            actorId: F.ann, acceptedAt: F.now))])
    }

    @Test func correctionsAreChecked() {
        #expect(D.given(F.organisation).when(accept(F.cat, .init(locationId: F.shop)), F.by(F.ann)).failure == .locationNotFound)
        let result = D.given(F.organisation).when(accept(F.cat, .init(name: F.huge, employeeNumber: "")), F.by(F.ann))
        #expect(result.fields == ["name", "employeeNumber"])
    }

    @Test func onlyPendingRequestsAreAnswered() {
        for command in [accept(F.dan), reject(F.dan), accept(F.bob), reject(F.bob)] {
            let failure = D.given(F.organisation).when(command, F.by(F.ann)).failure
            #expect(failure == .joinRequestNotFound && failure?.code == "join_request_not_found" && failure?.kind == .notFound)
        }
        let answered = F.organisation + [F.rejected(F.cat)]
        #expect(D.given(answered).when(accept(), F.by(F.ann)).failure == .joinRequestNotFound)
        #expect(D.given(answered).when(reject(), F.by(F.ann)).failure == .joinRequestNotFound)
    }

    @Test func anAdminRejectsARequestAndTheUserMayAskAgain() throws {
        let events = try D.given(F.organisation).when(reject(), F.by(F.ann)).get()
        #expect(events == [F.rejected(F.cat)])
        let after = F.organisation + events
        #expect(D.fold(after).organisations[F.acme]?.viewer(F.cat).standing == .outsider)
        #expect(try D.given(after).when(ask(at: F.depot), F.by(F.cat)).get().count == 1)
    }

    @Test func aPendingUserCannotAnswerTheirOwnRequest() {
        #expect(D.given(F.organisation).when(accept(), F.by(F.cat)).failure == .notAMember)
    }

    @Test func membersAndRequestsTogetherStopAtTheLimit() {
        var events = F.organisation
        // Ann, Bob and Cat count already.
        for index in 3..<WorkplaceLimits.membersPerOrganisationMax {
            events.append(.joinRequested(.init(
                organisationId: F.acme, userId: "u\(index)", locationId: F.hq, employeeNumber: "\(index)", name: "U", requestedAt: F.now)))
        }
        #expect(D.given(events).when(ask(), F.by(F.dan)).failure == .limitReached(.members))
    }
}
