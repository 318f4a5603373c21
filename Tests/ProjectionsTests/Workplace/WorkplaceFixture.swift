import EventLog
import EventSourcing
import Foundation
import Testing
@testable import Workplace
@testable import Projections

/// A real log and the workplace read models in a temporary directory, fed with events as the
/// decider writes them (built here from the payloads, so that every history, odd ones
/// included, can be told exactly).
final class WorkplaceFixture {
    let directory = NSTemporaryDirectory() + "projection-workplace-" + UUID().uuidString
    let log: LMDBEventStore
    let engine: ProjectionEngine<LMDBEventStore>
    let queries: WorkplaceQueries<LMDBEventStore>
    private let live: Task<Void, any Error>
    /// A fixed start, so times in expectations are readable.
    static var start: Date { Date(timeIntervalSince1970: 1_800_000_000) }

    init(personalData: (any PersonalDataKeyring)? = nil) async throws {
        var options = EventStoreOptions()
        options.unsafeNoSync = true
        log = try LMDBEventStore(dataDirectory: directory, options: options)
        engine = try ProjectionEngine(
            log: log, dataDirectory: directory, projections: WorkplaceProjections.all, sync: .unsafeNever, personalData: personalData)
        queries = WorkplaceQueries(engine: engine)
        #expect(try await engine.prepare().isEmpty)
        live = Task { [engine] in try await engine.runLive() }
    }

    /// Appends `events` as one request by `actor` and waits until they are projected; returns
    /// the position of the last.
    @discardableResult
    func append(_ events: WorkplaceEvent..., by actor: String = "admin") async throws -> UInt64 {
        try await append(events, by: actor)
    }

    /// Appends `events` as one request by `actor` and waits until they are projected.
    @discardableResult
    func append(_ events: [WorkplaceEvent], by actor: String = "admin") async throws -> UInt64 {
        try await appendProjected(events, by: actor, to: log, engine)
    }

    func close() {
        live.cancel()
        log.close()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// Workplace events with readable defaults, as the decider would write them.
enum WorkplaceHistory {
    static let start = WorkplaceFixture.start

    static func register(
        _ organisationId: String, _ name: String, locations: [(String, String)] = [("loc-1", "Head office")],
        creator: String = "ann", creatorName: String = "Ann", at date: Date = start
    ) -> WorkplaceEvent {
        .organisationRegistered(.init(
            organisationId: organisationId, name: name, locations: locations.map { .init(locationId: $0.0, name: $0.1) },
            creatorId: creator, creatorName: creatorName, registeredAt: date))
    }

    static func request(_ organisationId: String, _ userId: String, name: String, number: String, location: String = "loc-1", at date: Date = start) -> WorkplaceEvent {
        .joinRequested(.init(organisationId: organisationId, userId: userId, locationId: location, employeeNumber: number, name: name, requestedAt: date))
    }

    static func accept(_ organisationId: String, _ userId: String, name: String, number: String, location: String = "loc-1") -> WorkplaceEvent {
        .joinRequestAccepted(.init(
            organisationId: organisationId, userId: userId, locationId: location, employeeNumber: number, name: name,
            actorId: "ann", acceptedAt: start))
    }

    static func join(_ organisationId: String, _ userId: String, name: String, number: String, location: String = "loc-1") -> [WorkplaceEvent] {
        [request(organisationId, userId, name: name, number: number, location: location),
         accept(organisationId, userId, name: name, number: number, location: location)]
    }

    static func form(_ organisationId: String, _ formId: String, name: String, questions: [(String, String, QuestionKind)]) -> WorkplaceEvent {
        .formCreated(.init(
            organisationId: organisationId, formId: formId, name: name,
            questions: questions.map { .init(questionId: $0.0, text: $0.1, kind: $0.2) }, actorId: "ann"))
    }

    static func review(
        _ organisationId: String, _ reviewId: String, of employeeId: String, by reviewer: (String, String) = ("ann", "Ann"),
        text: String = "Helpful", remark: String? = "Keep it up", at date: Date = start
    ) -> WorkplaceEvent {
        .reviewSubmitted(.init(
            organisationId: organisationId, reviewId: reviewId, employeeId: employeeId, reviewerId: reviewer.0, reviewerName: reviewer.1,
            formId: "form-1", formName: "Yearly",
            answers: [
                .init(questionId: "q1", question: "How punctual?", kind: .rating, rating: 4),
                .init(questionId: "q2", question: "Team player?", kind: .yesNo, yes: true),
                .init(questionId: "q3", question: "What went well?", kind: .text, text: text),
            ],
            remark: remark, submittedAt: date))
    }

    static func news(
        _ organisationId: String, _ newsId: String, location: String = "loc-1", title: String = "Title", text: String = "Text",
        author: (String, String) = ("ann", "Ann"), image: String? = nil, at date: Date = start
    ) -> WorkplaceEvent {
        .newsPosted(.init(
            organisationId: organisationId, newsId: newsId, locationId: location, title: title, text: text, imageBlobId: image,
            authorId: author.0, authorName: author.1, postedAt: date))
    }
}
