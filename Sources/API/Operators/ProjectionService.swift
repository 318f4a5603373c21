import EventLog
import Logging
import Projections
import ServiceLifecycle

/// Runs the projection engine alongside the HTTP server: registers projections, rebuilds those
/// of another version in the background (the old copy serves meanwhile), then follows the log
/// until graceful shutdown.
struct ProjectionService: Service {
    let engine: ProjectionEngine<LMDBEventStore>
    let logger: Logger

    func run() async throws {
        let stale = try await engine.prepare()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for name in stale {
                group.addTask {
                    logger.info("rebuilding projection of another version", metadata: ["projection": "\(name)"])
                    try await engine.rebuild(name)
                }
            }
            group.addTask {
                try await cancelWhenGracefulShutdown { try await engine.runLive() }
            }
            try await group.waitForAll()
        }
    }
}
