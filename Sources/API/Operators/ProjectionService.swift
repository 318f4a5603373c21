import EventLog
import PostgresEventLog
import Logging
import Projections
import ServiceLifecycle

/// Runs the projection engine alongside the HTTP server: registers projections, rebuilds those
/// of another version (or failed) in the background (the old copy serves meanwhile), then follows
/// the log until graceful shutdown.
///
/// Once the read models are open, nothing here ends the server: a failed projection is skipped by the runner, a failed rebuild
/// is recorded in the projection's status, and a runner that stops leaves the server answering
/// from the read models as they are, with `/health/ready` saying why it is not ready.
struct ProjectionService: Service {
    let engine: ProjectionEngine<EventLogBackend>
    let logger: Logger
    /// Runs once the read models are open and before the runner follows the log (finishing the
    /// erasures a crash interrupted, which must see the read models as the last run left them).
    var prepared: (@Sendable () async -> Void)?

    func run() async throws {
        let logger = logger
        engine.reportIncidents { incident in
            logger.log(level: incident.logLevel, "\(incident.message)", metadata: incident.metadata)
        }
        let stale = try await engine.prepare()
        await prepared?()
        await withTaskGroup(of: Void.self) { group in
            for name in stale {
                group.addTask {
                    logger.info("rebuilding projection", metadata: ["projection": "\(name)"])
                    do {
                        try await engine.rebuild(name)
                    } catch {
                        // Already recorded as the projection's lastRebuildError and reported (so
                        // logged) by the engine; the served copy is unchanged.
                    }
                }
            }
            group.addTask {
                do {
                    try await cancelWhenGracefulShutdown { try await engine.runLive() }
                } catch {
                    logger.critical("projection runner stopped", metadata: ["error": "\(error)"])
                }
                // Stopped or not, the service lasts as long as the server: its end would end the
                // server, and queries can still be answered while /health/ready says not ready.
                try? await gracefulShutdown()
            }
        }
    }
}
