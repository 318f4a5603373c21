import CoreMetrics
import EventLog
import Foundation

extension LogbookMetrics {
    /// One HTTP request answered: `route` is the matched route's template, or "unmatched".
    func recordRequest(method: String, route: String, status: Int, duration: Duration) {
        let series = httpSeries(HTTPSeriesKey(method: method, route: route, status: status))
        series.requests.increment()
        series.duration.recordNanoseconds(Self.nanoseconds(duration))
    }

    /// The request counter and timer of one (method, route, status), made once: making them
    /// anew validates the names and hashes the labels in the registry on every request.
    private func httpSeries(_ key: HTTPSeriesKey) -> HTTPSeries {
        if let known = httpSeriesCache.withLock({ $0[key] }) { return known }
        let series = HTTPSeries(
            requests: CoreMetrics.Counter(
                label: Name.httpRequests, dimensions: [("method", key.method), ("route", key.route), ("status", String(key.status))],
                factory: factory),
            duration: CoreMetrics.Timer(label: Name.httpRequestDuration, dimensions: [("method", key.method), ("route", key.route)], factory: factory))
        return httpSeriesCache.withLock { cache in
            if let raced = cache[key] { return raced }
            cache[key] = series
            return series
        }
    }

    /// One command's outcome: `outcome` is accepted, replayed, rejected or failed, and `code` the
    /// problem's code when it was not carried out ("none" when it was).
    func recordCommand(_ command: String, outcome: CommandOutcomeLabel, code: String = "none") {
        counter(Name.commands, [("command", command), ("outcome", outcome.rawValue), ("code", code)]).increment()
    }

    /// A group commit of the log's writer (the log's `commitObserver`, on its writer thread).
    func recordGroupCommit(_ report: GroupCommitReport) {
        groupCommitBatchRequests.record(report.requests)
        groupCommitFsyncDuration.recordNanoseconds(Self.nanoseconds(report.commitDuration))
        for (type, count) in report.eventsByType {
            counter(Name.eventsAppended, [("type", type)]).increment(by: count)
        }
    }

    /// Adds the command handler's conflicts seen since the last call to the retries counter.
    func recordConflicts(seen: Int) {
        let new = conflictsReported.withLock { reported in
            defer { reported = max(reported, seen) }
            return max(0, seen - reported)
        }
        if new > 0 { commandConflictRetries.increment(by: new) }
    }

    /// The counter `name` with `dimensions`, made once (the writer thread counts events with it).
    private func counter(_ name: String, _ dimensions: [(String, String)]) -> CoreMetrics.Counter {
        let key = CounterKey(name: name, labels: dimensions.flatMap { [$0.0, $0.1] })
        if let known = counterCache.withLock({ $0[key] }) { return known }
        let made = CoreMetrics.Counter(label: name, dimensions: dimensions, factory: factory)
        return counterCache.withLock { cache in
            if let raced = cache[key] { return raced }
            cache[key] = made
            return made
        }
    }

    /// A gauge of this registry set to `value`.
    func set(_ name: String, _ dimensions: [(String, String)], to value: Double) {
        Gauge(label: name, dimensions: dimensions, factory: factory).record(value)
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

/// The `outcome` label of `logbook_commands_total`.
enum CommandOutcomeLabel: String, Sendable {
    /// Decided and appended (or nothing to append).
    case accepted
    /// A retry under a known Idempotency-Key, answered with the first outcome.
    case replayed
    /// Refused: a domain rule, contention, a reused key (4xx).
    case rejected
    /// The service failed (5xx).
    case failed
}
