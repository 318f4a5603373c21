import CoreMetrics
import EventLog
import Foundation
import Prometheus
import Synchronization

/// The server's metrics, in a Prometheus registry of its own (`GET /metrics`).
///
/// Every runtime has its own registry and swift-metrics factory instead of the process-global
/// `MetricsSystem`: tests build many servers in one process, and each must count only its own
/// requests. The metrics are swift-metrics types made with `factory:` explicitly.
///
/// Labels are bounded sets only: route templates (never raw paths or ids), status codes, event
/// types, decider names, error codes, projection names and environment names.
public final class LogbookMetrics: Sendable {
    /// The registry `/metrics` renders.
    let registry: PrometheusCollectorRegistry
    /// The factory every metric of this runtime is made with.
    let factory: PrometheusMetricsFactory

    /// Live (SSE) streams open: set from the live hub's count at every scrape, so the count the
    /// hub keeps for its limits is the one shown and no stream path has to remember to report.
    public let liveStreamsOpen: Meter
    /// Requests the log's writer committed together, per commit.
    let groupCommitBatchRequests: Recorder
    /// `mdb_txn_commit` (the fsync) per group commit.
    let groupCommitFsyncDuration: CoreMetrics.Timer
    /// Appends refused because their boundary changed after the decision: what the handler retried.
    let commandConflictRetries: CoreMetrics.Counter
    /// The conflicts already added to `commandConflictRetries` (the handler counts them itself).
    let conflictsReported = Mutex<Int>(0)
    /// The HTTP series made so far; bounded like their labels (routes × methods × statuses).
    let httpSeriesCache = Mutex<[HTTPSeriesKey: HTTPSeries]>([:])
    /// The labelled counters made so far (commands, events appended), as bounded as their labels.
    let counterCache = Mutex<[CounterKey: CoreMetrics.Counter]>([:])

    /// An empty registry with this server's families and their buckets.
    public init() {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets = [
            Name.httpRequestDuration: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10].map(Self.duration),
            Name.groupCommitFsyncDuration: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1]
                .map(Self.duration),
        ]
        factory.valueHistogramBuckets = [Name.groupCommitBatchRequests: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]]
        self.registry = registry
        self.factory = factory
        liveStreamsOpen = Meter(label: Name.liveStreamsOpen, factory: factory)
        groupCommitBatchRequests = Recorder(label: Name.groupCommitBatchRequests, aggregate: true, factory: factory)
        groupCommitFsyncDuration = CoreMetrics.Timer(label: Name.groupCommitFsyncDuration, factory: factory)
        commandConflictRetries = CoreMetrics.Counter(label: Name.commandConflictRetries, factory: factory)
        // Present from the start, so a scrape shows the family before the first stream.
        liveStreamsOpen.set(0)
    }

    /// The metric families' names, as `/metrics` shows them (openapi.yaml documents them).
    enum Name {
        static let httpRequests = "logbook_http_requests_total"
        static let httpRequestDuration = "logbook_http_request_duration_seconds"
        static let eventsAppended = "logbook_events_appended_total"
        static let commands = "logbook_commands_total"
        static let commandConflictRetries = "logbook_command_conflict_retries_total"
        static let groupCommitBatchRequests = "logbook_group_commit_batch_requests"
        static let groupCommitFsyncDuration = "logbook_group_commit_fsync_duration_seconds"
        static let projectionLagEvents = "logbook_projection_lag_events"
        static let projectionLagSeconds = "logbook_projection_lag_seconds"
        static let liveStreamsOpen = "logbook_live_streams_open"
        static let lmdbMapSize = "logbook_lmdb_map_size_bytes"
        static let lmdbUsed = "logbook_lmdb_used_bytes"
    }

    /// The labels of one HTTP request series.
    struct HTTPSeriesKey: Hashable {
        let method: String
        let route: String
        let status: Int
    }

    /// A counter's name and label names and values, in order.
    struct CounterKey: Hashable {
        let name: String
        let labels: [String]
    }

    /// The metrics of one HTTP request series.
    struct HTTPSeries: Sendable {
        let requests: CoreMetrics.Counter
        let duration: CoreMetrics.Timer
    }

    private static func duration(_ seconds: Double) -> Duration { .nanoseconds(Int64((seconds * 1e9).rounded())) }
}
