import EventLog
import EventSourcing
import Foundation
import Neighbourhood
import Testing
@testable import Projections

/// `neighbourhood.reports` keeps a report's title, description and author's name, and a reply's
/// author's name and message, as the log stores them (sealed), and its queries open them (ADR
/// 0009): none is ever in the read model in the clear, every answer shows them, and an erased
/// author's read as the log itself then reads them, from the moment the key is destroyed.
@Suite("Neighbourhood read models: personal data kept sealed", .timeLimit(.minutes(2)))
struct NeighbourhoodSealedTextTests {
    private static let title = "Title Marker-5d1c"
    private static let description = "Description Marker-9a07"
    private static let authorName = "Ann Marker-2b6e"
    private static let message = "Message Marker-e4f8"
    private static let replierName = "Eve Marker-71c3"

    /// What the queries show of the report and the reply, read from every answer that shows them.
    private struct Shown: Equatable {
        var title: String, description: String, authorName: String, replierName: String, message: String
        var listedTitle: String, pinnedTitle: String, notifiedTitle: String, notifiedName: String
    }

    private func shown(_ queries: NeighbourhoodQueries<LMDBEventStore>) throws -> Shown {
        let detail = try #require(try queries.report(id: "r1", viewer: "bob", neighbourhood: "1012AB"))
        let reply = try #require(detail.replies.first)
        let listed = try #require(try queries.reports(in: "1012AB", category: nil, viewer: "bob", limit: 1, cursor: nil).items.first)
        let pin = try #require(try queries.map(of: "1012AB", within: nil).first)
        let notification = try #require(try queries.notifications(of: "bob", neighbourhood: "1012AB", limit: 1, cursor: nil).items.first)
        #expect(notification.replyId == "x1" && notification.reportId == "r1" && notification.from.userId == "eve")
        return Shown(
            title: detail.view.report.title, description: detail.view.report.description, authorName: detail.view.report.author.displayName,
            replierName: reply.author.displayName, message: reply.message, listedTitle: listed.report.title, pinnedTitle: pin.title,
            notifiedTitle: notification.reportTitle, notifiedName: notification.from.displayName)
    }

    /// What the log's events read now, opened with `keyring`: the report and the reply as stored.
    private func logged(_ fixture: NeighbourhoodFixture, _ keyring: PersonalDataKeyStore) throws -> Shown {
        let events = try fixture.log.readBatch(from: 1, limit: 100)
        var report: NeighbourhoodEvent.ReportPosted?, reply: NeighbourhoodEvent.ReplyPosted?
        for event in events {
            switch try NeighbourhoodEvent.decode(typeName: event.type, schemaVersion: event.schemaVersion, data: event.data, opening: keyring) {
            case .reportPosted(let p)?: report = p
            case .replyPosted(let p)?: reply = p
            default: break
            }
        }
        let r = try #require(report), x = try #require(reply)
        return Shown(
            title: r.title, description: r.description, authorName: r.authorDisplayName, replierName: x.authorDisplayName, message: x.message,
            listedTitle: r.title, pinnedTitle: r.title, notifiedTitle: r.title, notifiedName: x.authorDisplayName)
    }

    @Test func authorsTextsAreNeverInTheReadModelAndReadErasedAtOnce() async throws {
        let keys = try TemporaryKeyStore()
        defer { keys.remove() }
        let keyring = keys.keyring
        let fixture = try await NeighbourhoodFixture(projections: NeighbourhoodProjections.all, personalData: keyring)
        defer { fixture.close() }
        try await fixture.run(.postReport(.init(
            reportId: "r1", neighbourhood: "1012AB", displayName: Self.authorName, title: Self.title, description: Self.description,
            category: ReportCategory.event.rawValue, latitude: 52.37, longitude: 4.89)), by: "ann")
        try await fixture.follow("r1", by: "bob")
        try await fixture.run(.postReply(reportId: "r1", replyId: "x1", message: Self.message, displayName: Self.replierName,
                                         neighbourhood: "1012AB"), by: "eve")
        let queries = fixture.queries
        let opened = Shown(
            title: Self.title, description: Self.description, authorName: Self.authorName, replierName: Self.replierName, message: Self.message,
            listedTitle: Self.title, pinnedTitle: Self.title, notifiedTitle: Self.title, notifiedName: Self.replierName)
        #expect(try shown(queries) == opened)
        let model = try RawReadModel(NeighbourhoodProjections.reports, in: fixture.engine)
        for text in [Self.title, Self.description, Self.authorName, Self.message, Self.replierName] {
            #expect(model.count > 0 && !model.holds(text), "\(text) is kept sealed")
        }

        try keyring.erase("ann")
        try keyring.erase("eve")
        let erased = try shown(queries)
        #expect(erased == (try logged(fixture, keyring)), "the read model reads erased texts as the log does")
        #expect(erased.authorName == PersonalDataSeal.deletedUser && erased.title.isEmpty && erased.message.isEmpty)
    }
}
