import Foundation
import Neighbourhood
import Projections

extension DemoSeeder {
    /// Ann's and Bob's neighbourhood (both live in the same postcode): three reports around the
    /// Dam in Amsterdam, replies both ways and a follow, so every neighbourhood route has
    /// something to show, notifications included. Returns how many reports it posted.
    func seedNeighbourhood(ann: String, bob: String) async throws -> Int {
        let reports = [
            (title: "Bike stolen", category: ReportCategory.suspicious, by: ann, latitude: 52.3731, longitude: 4.8922,
             description: "My blue bike was taken from the rack outside number 12 last night. Seen anything?"),
            (title: "Street party on Saturday", category: .event, by: bob, latitude: 52.3745, longitude: 4.8897,
             description: "From 2 pm on the square. Bring a chair and something to share."),
            (title: "Road works on the canal bridge", category: .attention, by: ann, latitude: 52.3719, longitude: 4.8950,
             description: "The bridge is closed to cars for two weeks; cyclists can pass."),
        ]
        var ids: [String] = []
        for report in reports {
            let id = Routes.newID()
            let profile = try neighbour(report.by)
            try await run(.postReport(.init(
                reportId: id, neighbourhood: profile.postcode, displayName: profile.displayName, title: report.title,
                description: report.description, category: report.category.rawValue,
                latitude: report.latitude, longitude: report.longitude)), as: report.by)
            ids.append(id)
        }
        try await run(.followReport(reportId: ids[0], neighbourhood: try neighbour(bob).postcode), as: bob)
        // (report, who, what): each reply notifies the other, who follows the report.
        let replies = [(0, bob, "I saw two people with a van around midnight."), (0, ann, "Thanks, I told the police."),
                       (1, ann, "We'll bring lemonade!")]
        for (report, user, message) in replies {
            let profile = try neighbour(user)
            try await run(.postReply(reportId: ids[report], replyId: Routes.newID(), message: message,
                                     displayName: profile.displayName, neighbourhood: profile.postcode), as: user)
        }
        return reports.count
    }

    /// Runs a neighbourhood command as `actor`; the read models include it on return.
    private func run(_ command: NeighbourhoodCommand, as actor: String) async throws {
        _ = try await runner.run(NeighbourhoodDecider.self, command, actor: actor)
    }

    /// The account's profile from the read model, as the neighbourhood routes look it up.
    private func neighbour(_ userId: String) throws -> AccountProfile {
        guard let profile = try runtime.accounts.profile(userId) else { throw AccountsService.accountNotFound }
        return profile
    }
}
