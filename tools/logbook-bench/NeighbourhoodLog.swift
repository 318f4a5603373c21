import Accounts
import EventLog
import EventSourcing
import Foundation
import Neighbourhood

/// A neighbourhood log shaped like real use: residents spread over postcodes, then reports, each
/// posted with its author's follow, followed by three neighbours, answered by five replies (each
/// notifying the followers but the replier), with one neighbour unfollowing; every twentieth
/// report is deleted again, which walks its lists, follows and notifications.
enum NeighbourhoodLog {
    static let neighbourhoods = 100
    static let residentsPerNeighbourhood = 20
    /// Posted, the author's follow, 3 follows, 5 replies, 1 unfollow.
    static let eventsPerReport = 11

    /// Appends about `events` account and neighbourhood events (no fsync) and returns how many it
    /// wrote, the reports' each decided by `NeighbourhoodDecider` from its command, as a server would.
    static func fill(_ store: LMDBEventStore, events: Int, sealer: EventSealer = .plain) async throws -> Int {
        var batch = DomainEventBatch(store: store, sealer: sealer)
        let hash = PasswordHash(bcrypt: "$2b$04$" + String(repeating: "a", count: 53))!
        func postcode(_ n: Int) -> String { "\(1000 + n)AB" }
        func resident(_ neighbourhood: Int, _ n: Int) -> String { "u\(neighbourhood)-\(n % residentsPerNeighbourhood)" }
        for neighbourhood in 0..<neighbourhoods {
            for n in 0..<residentsPerNeighbourhood {
                let userId = resident(neighbourhood, n)
                try await batch.add(AccountEvent.registered(.init(
                    userId: userId, email: "\(userId)@example.org", passwordHash: hash, displayName: "Resident \(userId)",
                    postcode: postcode(neighbourhood))), by: userId)
            }
        }
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        var state = NeighbourhoodDecider.initialState
        func run(_ command: NeighbourhoodCommand, by actor: String) async throws {
            try await batch.decide(command, with: NeighbourhoodDecider.self, state: &state, by: actor, at: now)
        }
        let categories = ReportCategory.allCases
        let accounts = neighbourhoods * residentsPerNeighbourhood
        for report in 0..<max(1, (events - accounts) / eventsPerReport) {
            let reportId = "r\(report)"
            let neighbourhood = report % neighbourhoods
            let code = postcode(neighbourhood)
            let author = resident(neighbourhood, report)
            // Posted with its author's follow.
            try await run(.postReport(.init(
                reportId: reportId, neighbourhood: code, displayName: "Resident \(author)", title: "Report \(report)",
                description: "Something worth telling the neighbours about, number \(report).",
                category: categories[report % categories.count].rawValue, latitude: 52 + Double(report % 1_000) / 10_000,
                longitude: 4.9 + Double(report % 997) / 10_000)), by: author)
            let followers = (1...3).map { resident(neighbourhood, report + $0) }
            for follower in followers { try await run(.followReport(reportId: reportId, neighbourhood: code), by: follower) }
            for reply in 0..<5 {
                let replier = resident(neighbourhood, report + reply * 2)
                try await run(.postReply(reportId: reportId, replyId: "\(reportId)-\(reply)", message: "Reply \(reply) to report \(report).",
                                         displayName: "Resident \(replier)", neighbourhood: code), by: replier)
            }
            try await run(.unfollowReport(reportId: reportId, neighbourhood: code), by: followers[0])
            if report % 20 == 19 { try await run(.deleteReport(reportId: reportId, neighbourhood: code), by: author) }
        }
        return try await batch.finish()
    }
}
