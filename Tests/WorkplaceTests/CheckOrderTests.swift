import EventSourcing
import Testing
@testable import Workplace

/// The order every command on an existing organisation is checked in: the organisation, then
/// membership, then the admin flag, before anything the command names.
@Suite("Workplace check order")
struct CheckOrderTests {
    typealias D = WorkplaceDecider
    typealias F = Fixture

    /// Every command but registering and asking to join, on `organisationId`, naming things
    /// that do not exist and fields that are invalid: each must fail at the earlier checks first.
    static func commands(_ organisationId: String) -> [WorkplaceCommand] {
        let u = F.unknown
        return [
            .addLocation(organisationId: organisationId, location: .init(locationId: u, name: "")),
            .renameLocation(organisationId: organisationId, locationId: u, name: ""),
            .removeLocation(organisationId: organisationId, locationId: u),
            .acceptJoinRequest(organisationId: organisationId, userId: u, correction: .init(name: "")),
            .rejectJoinRequest(organisationId: organisationId, userId: u),
            .changeMember(organisationId: organisationId, userId: u, locationId: u, admin: true),
            .createForm(organisationId: organisationId, formId: u, name: "", questions: []),
            .renameForm(organisationId: organisationId, formId: u, name: ""),
            .addQuestion(organisationId: organisationId, formId: u, question: .init(questionId: u, text: "", kind: "x")),
            .removeQuestion(organisationId: organisationId, formId: u, questionId: u),
            .reorderQuestions(organisationId: organisationId, formId: u, questionIds: []),
            .deleteForm(organisationId: organisationId, formId: u),
            .submitReview(.init(organisationId: organisationId, reviewId: u, employeeId: u, formId: u, answers: [], remark: nil)),
            .postNews(organisationId: organisationId, newsId: u, locationId: u, title: "", text: "", imageBlobId: nil),
            .deleteNews(organisationId: organisationId, newsId: u),
        ]
    }

    @Test func anUnknownOrganisationIsNotFoundForEveryCommand() {
        let commands = Self.commands(F.globex) + [
            .requestToJoin(organisationId: F.globex, locationId: F.hq, employeeNumber: "1", name: "Dan"),
            .removeMember(organisationId: F.globex, userId: F.dan),
        ]
        for command in commands {
            let failure = D.given(F.organisation).when(command, F.by(F.ann)).failure
            #expect(failure == .organisationNotFound, "\(command)")
            #expect(failure?.code == "organisation_not_found" && failure?.kind == .notFound)
        }
    }

    @Test func outsidersAndPendingUsersAreNotMembers() {
        for actor in [F.dan, F.cat] {
            for command in Self.commands(F.acme) + [.removeMember(organisationId: F.acme, userId: F.bob)] {
                let failure = D.given(F.organisation).when(command, F.by(actor)).failure
                #expect(failure == .notAMember, "\(actor) \(command)")
                #expect(failure?.code == "not_a_member" && failure?.kind == .forbidden)
            }
        }
    }

    @Test func employeesAreNotAdmins() {
        for command in Self.commands(F.acme) + [.removeMember(organisationId: F.acme, userId: F.ann)] {
            let failure = D.given(F.organisation).when(command, F.by(F.bob)).failure
            #expect(failure == .notAnAdmin, "\(command)")
            #expect(failure?.code == "not_an_admin" && failure?.kind == .forbidden)
        }
    }

    @Test func aRemovedMemberIsNoLongerOne() {
        let events = F.organisation + [F.removed(F.bob)]
        #expect(D.given(events).when(.deleteNews(organisationId: F.acme, newsId: F.news), F.by(F.bob)).failure == .notAMember)
    }

    @Test func afterTheAdminChecksTheNamedEntitiesComeBeforeTheFields() {
        let expected: [WorkplaceError?] = [
            nil,  // addLocation names no existing entity: its fields are checked
            .locationNotFound, .locationNotFound, .joinRequestNotFound, .joinRequestNotFound, .memberNotFound,
            nil,  // createForm likewise
            .formNotFound, .formNotFound, .formNotFound, .formNotFound, .formNotFound, .memberNotFound,
            .locationNotFound, .newsNotFound,
        ]
        for (command, error) in zip(Self.commands(F.acme), expected) {
            let failure = D.given(F.organisation).when(command, F.by(F.ann)).failure
            if let error {
                #expect(failure == error, "\(command)")
                #expect(failure?.kind == .notFound)
            } else {
                #expect(failure?.kind == .validation, "\(command)")
            }
        }
    }

    @Test func commandsOnAnotherOrganisationDoNotReadThisOne() {
        // Ann is Acme's admin, not Globex's: her standing in one says nothing about the other.
        let events = F.organisation + [F.registered(F.globex, name: "Globex", by: F.dan)]
        let failure = D.given(events).when(.deleteForm(organisationId: F.globex, formId: F.yearly), F.by(F.ann)).failure
        #expect(failure == .notAMember)
    }
}
