import EventLog
import Foundation
import LMDB
import OpenAPIRuntime
import Projections

/// `GET /metrics`: the Prometheus text exposition, for the operator only.
extension LogbookAPI {
    func getMetrics(_ input: Operations.GetMetrics.Input) async throws -> Operations.GetMetrics.Output {
        // On the public port: request rates by route, event counts by type and read-model lag
        // describe the service's use, which is the operator's business, not every client's.
        // Refused as every operator route is: 401 without a token, 403 `not_an_operator` for
        // another, 404 only where no operator token is configured. Not a 404 to hide it: that
        // /metrics exists tells no one anything (it is Prometheus' default path, and in
        // /openapi.json), while a scraper with a stale or mistyped token that got a 404 would
        // look for a wrong URL instead of a wrong credential.
        try requireOperator()
        try await runtime.refreshScrapedMetrics()
        return .ok(.init(body: .textPlainVersion_0_0_4(HTTPBody(runtime.metrics.registry.emitToString()))))
    }
}

extension LogbookRuntime {
    /// Sets the gauges read from state rather than counted as it happens: projection lag, LMDB
    /// map size and use, live streams open, and the handler's conflict retries.
    func refreshScrapedMetrics() async throws {
        metrics.recordConflicts(seen: commands.conflictsSeen)
        metrics.liveStreamsOpen.set(Double(live.openStreams))
        // A PostgreSQL log has no LMDB environment: only the read models' is reported then.
        let environments = [("log", log.environmentInfo), ("readmodels", projections.readModelEnvironmentInfo)]
        for case let (environment, info?) in environments {
            metrics.set(LogbookMetrics.Name.lmdbMapSize, [("environment", environment)], to: Double(info.mapSizeBytes))
            metrics.set(LogbookMetrics.Name.lmdbUsed, [("environment", environment)], to: Double(info.usedBytes))
        }
        let now = configuration.clock()
        for status in try await projections.status() {
            let projection = [("projection", status.name)]
            metrics.set(LogbookMetrics.Name.projectionLagEvents, projection, to: Double(status.lag))
            metrics.set(LogbookMetrics.Name.projectionLagSeconds, projection, to: try await lagSeconds(after: status, now: now))
        }
    }

    /// How long the oldest event the projection has not applied has waited: 0 when it is caught up.
    private func lagSeconds(after status: ProjectionStatus, now: Date) async throws -> Double {
        guard status.lag > 0 else { return 0 }
        let oldest = try await log.readAll(from: status.checkpoint + 1, direction: .forward, limit: 1)
        guard let event = oldest.first else { return 0 }
        return max(0, now.timeIntervalSince(event.recordedAt))
    }
}
