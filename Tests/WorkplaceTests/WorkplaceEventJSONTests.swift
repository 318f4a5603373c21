import EventSourcing
import Foundation
import Testing
@testable import Workplace

@Suite("Workplace events as JSON")
struct WorkplaceEventJSONTests {
    @Test("every type name decodes back to the event it was encoded from")
    func roundTrip() throws {
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        let events: [WorkplaceEvent] = [
            .organisationRegistered(.init(organisationId: "o", name: "Acme", locations: [.init(locationId: "l", name: "HQ")],
                                          creatorId: "u", creatorName: "Ann", registeredAt: at)),
            .reviewSubmitted(.init(organisationId: "o", reviewId: "r", employeeId: "e", reviewerId: "u", reviewerName: "Ann",
                                   formId: "f", formName: "Yearly",
                                   answers: [.init(questionId: "q", question: "How?", kind: .rating, rating: 4)],
                                   remark: nil, submittedAt: at)),
            .newsDeleted(.init(organisationId: "o", newsId: "n", locationId: "l", actorId: "u")),
        ]
        for event in events {
            let decoded = try WorkplaceEvent.decode(typeName: event.typeName, schemaVersion: 1, data: event.encodeData())
            #expect(decoded == event)
        }
        #expect(WorkplaceEvent.typeNames.count == 18)
        #expect(try WorkplaceEvent.decode(typeName: "household.taskCompleted", schemaVersion: 1, data: Data("{}".utf8)) == nil)
    }

    /// Reviews (with their answers), news, join requests and their answers, and news deletions
    /// are read straight from the JSON nodes (`NodeDecodable`): the same values as the Codable path for random variants and every
    /// one-change mutation (a missing answer field, a wrong kind, a null remark), the same refusals.
    @Test("reviews, news and join requests read from the JSON nodes agree with the Codable path")
    func nodeDecodingAgrees() throws {
        var random = SystemRandomNumberGenerator()
        let at = Date(timeIntervalSince1970: 1_800_000_000.5)
        let review = WorkplaceEvent.ReviewSubmitted(
            organisationId: "o", reviewId: "r", employeeId: "e", reviewerId: "u", reviewerName: "Ann", formId: "f", formName: "Yearly",
            answers: [.init(questionId: "q1", question: "How?", kind: .rating, rating: 4),
                      .init(questionId: "q2", question: "Ok?", kind: .yesNo, yes: false),
                      .init(questionId: "q3", question: "What?", kind: .text, text: "Helpful")],
            remark: "Keep it up", submittedAt: at)
        let news = WorkplaceEvent.NewsPosted(
            organisationId: "o", newsId: "n", locationId: "l", title: "Title", text: "Text", imageBlobId: "b", authorId: "u",
            authorName: "Ann", postedAt: at)
        var problems = try NodeDecodingAgreement.disagreements(review, rounds: 30, using: &random)
        problems += try NodeDecodingAgreement.disagreements(news, rounds: 100, using: &random)
        problems += try NodeDecodingAgreement.disagreements(
            WorkplaceEvent.JoinRequested(organisationId: "o", userId: "u", locationId: "l", employeeNumber: "E1", name: "Bob", requestedAt: at),
            rounds: 100, using: &random)
        problems += try NodeDecodingAgreement.disagreements(
            WorkplaceEvent.JoinRequestAccepted(organisationId: "o", userId: "u", locationId: "l", employeeNumber: "E1", name: "Bob",
                                               actorId: "a", acceptedAt: at),
            rounds: 100, using: &random)
        problems += try NodeDecodingAgreement.disagreements(
            WorkplaceEvent.JoinRequestRejected(organisationId: "o", userId: "u", actorId: "a"), rounds: 100, using: &random)
        problems += try NodeDecodingAgreement.disagreements(
            WorkplaceEvent.NewsDeleted(organisationId: "o", newsId: "n", locationId: "l", actorId: "a"), rounds: 100, using: &random)
        #expect(problems.isEmpty, "\(problems.prefix(3))")
    }

    @Test("the name tag is the same for every spelling of one name, and registering carries it")
    func nameTag() {
        #expect(WorkplaceEvent.organisationNameTag("  ACME ") == WorkplaceEvent.organisationNameTag("acme"))
        #expect(WorkplaceEvent.organisationNameTag("Acme") != WorkplaceEvent.organisationNameTag("Acme B.V."))
        let registered = WorkplaceEvent.organisationRegistered(.init(
            organisationId: "o", name: "Acme", locations: [], creatorId: "u", creatorName: "Ann", registeredAt: .now))
        #expect(registered.tags == ["organisation:o", WorkplaceEvent.organisationNameTag("acme"), "user:u"])
        #expect(registered.streamID == "organisation-o")
    }
}
