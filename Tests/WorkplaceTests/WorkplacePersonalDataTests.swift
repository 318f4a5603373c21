import Crypto
import EventSourcing
import Foundation
import Testing
@testable import Workplace

/// An in-memory keyring: one key per subject until it is erased.
private final class Keyring: PersonalDataKeyring, @unchecked Sendable {
    private let lock = NSLock()
    private var keys: [String: SymmetricKey] = [:]
    private var erased: Set<String> = []

    func dataKey(of subject: String, create: Bool) throws -> SymmetricKey? {
        lock.withLock {
            if erased.contains(subject) { return nil }
            if let key = keys[subject] { return key }
            guard create else { return nil }
            let key = SymmetricKey(size: .bits256)
            keys[subject] = key
            return key
        }
    }

    func blindTag(_ purpose: String, _ value: String) -> String { purpose + ":" + value }

    func erase(_ subject: String) {
        lock.withLock {
            keys[subject] = nil
            erased.insert(subject)
        }
    }
}

/// The workplace's personal data (ADR 0004): sealed under whose it is, and read as placeholders
/// once that user is erased while everyone else's stays.
@Suite("Workplace personal data")
struct WorkplacePersonalDataTests {
    typealias F = Fixture

    private func roundTrip(_ events: [WorkplaceEvent], erasing subject: String) throws -> [WorkplaceEvent] {
        let keyring = Keyring()
        let sealer = EventSealer(keyring: keyring)
        let stored = try events.map { ($0.typeName, try sealer.data(of: $0)) }
        for (_, data) in stored {
            let text = String(decoding: data, as: UTF8.self)
            for secret in ["Ann Admin", "E-Cat", "Catherine", "Open again.", "Helpful", "Keep it up"] {
                #expect(!text.contains(secret), "\(secret) stored in the clear")
            }
        }
        keyring.erase(subject)
        return try stored.map { try #require(try WorkplaceEvent.decode(typeName: $0.0, schemaVersion: 1, data: $0.1, opening: keyring)) }
    }

    static let review = WorkplaceEvent.reviewSubmitted(.init(
        organisationId: F.acme, reviewId: F.review, employeeId: F.bob, reviewerId: F.ann, reviewerName: "Ann Admin",
        formId: F.yearly, formName: "Yearly review",
        answers: [.init(questionId: F.qRating, question: "How well?", kind: .rating, rating: 4),
                  .init(questionId: F.qText, question: "What went well?", kind: .text, text: "Helpful")],
        remark: "Keep it up", submittedAt: F.now))

    static let catAccepted = WorkplaceEvent.joinRequestAccepted(.init(
        organisationId: F.acme, userId: F.cat, locationId: F.hq, employeeNumber: "E-Cat", name: "Catherine", actorId: F.ann,
        acceptedAt: F.now))

    @Test func erasingTheEmployeeEmptiesWhatWasSaidAboutThemAndKeepsTheReviewersName() throws {
        let events = [Self.review, Self.catAccepted, F.newsPosted()]
        let read = try roundTrip(events, erasing: F.bob)
        guard case .reviewSubmitted(let review) = read[0] else { Issue.record("no review"); return }
        #expect(review.reviewerName == "Ann Admin")
        #expect(review.answers.map(\.text) == [nil, ""] && review.answers.map(\.rating) == [4, nil])
        #expect(review.answers.map(\.question) == ["How well?", "What went well?"] && review.formName == "Yearly review")
        #expect(review.remark == "")
        // Everyone else's data reads as it was.
        #expect(read[1] == Self.catAccepted && read[2] == F.newsPosted())
    }

    /// A review's texts are the reviewer's writing as well as about the employee (ADR 0010).
    @Test func erasingTheReviewerAndAuthorEmptiesWhatTheyWrote() throws {
        let events = [F.registered(), Self.review, F.newsPosted(), Self.catAccepted]
        let read = try roundTrip(events, erasing: F.ann)
        guard case .organisationRegistered(let registered) = read[0], case .reviewSubmitted(let review) = read[1],
              case .newsPosted(let news) = read[2] else { Issue.record("wrong events"); return }
        #expect(registered.creatorName == PersonalDataSeal.deletedUser && registered.name == "Acme")
        #expect(registered.locations.map(\.name) == ["HQ", "Depot"])
        #expect(review.reviewerName == PersonalDataSeal.deletedUser && review.answers[1].text == "" && review.remark == "")
        #expect(review.answers.map(\.rating) == [4, nil] && review.answers.map(\.question) == ["How well?", "What went well?"])
        #expect(news.authorName == PersonalDataSeal.deletedUser && news.title.isEmpty && news.text.isEmpty && news.locationId == F.depot)
        #expect(read[3] == Self.catAccepted)
    }

    @Test func erasingAJoinerEmptiesTheirNameAndNumber() throws {
        let requested = F.requested(F.cat, number: "E-Cat")
        let read = try roundTrip([requested, Self.catAccepted, Self.review], erasing: F.cat)
        guard case .joinRequested(let request) = read[0], case .joinRequestAccepted(let accepted) = read[1] else {
            Issue.record("wrong events"); return
        }
        #expect(request.name == PersonalDataSeal.deletedUser && request.employeeNumber.isEmpty && request.locationId == F.hq)
        #expect(accepted.name == PersonalDataSeal.deletedUser && accepted.employeeNumber.isEmpty)
        #expect(read[2] == Self.review)
    }
}
