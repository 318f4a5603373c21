import ArgumentParser
import EventLog
import EventSourcing
import Projections

/// An app whose log `rebuild` and `fill` write, shaped like its real use.
enum BenchApp: String, ExpressibleByArgument, CaseIterable {
    case household, quiz, neighbourhood, workplace, albums

    /// The app's own read models, each rebuilt on its own by `rebuild`.
    var projections: [any Projection] {
        switch self {
        case .household: HouseholdProjections.all
        case .quiz: QuizProjections.all
        case .neighbourhood: NeighbourhoodProjections.all
        case .workplace: WorkplaceProjections.all
        // The blob references fold the albums' photos and the accounts' avatars too.
        case .albums: AlbumsProjections.all + BlobProjections.all
        }
    }

    /// Appends about `events` of the app's events to `store` (no fsync per commit), sealed by
    /// `sealer` as a server's command handler seals them; answers how many it wrote.
    func fill(_ store: LMDBEventStore, events: Int, sealer: EventSealer = .plain) async throws -> Int {
        switch self {
        case .household: try await HouseholdLog.fill(store, events: events, sealer: sealer)
        case .quiz: try await QuizLog.fill(store, events: events, sealer: sealer)
        case .neighbourhood: try await NeighbourhoodLog.fill(store, events: events, sealer: sealer)
        case .workplace: try await WorkplaceLog.fill(store, events: events, sealer: sealer)
        case .albums: try await AlbumsLog.fill(store, events: events, sealer: sealer)
        }
    }
}
