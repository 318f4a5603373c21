import EventLog
import Projections

/// What `stats` prints, built from `LogStatistics` and the projections' status; `Encodable` for
/// `--json`.
struct StatsReport: Encodable {
    /// One LMDB database's B-tree.
    struct Pages: Encodable {
        let depth: UInt32
        let branchPages: Int
        let leafPages: Int
        let overflowPages: Int
        let entries: Int
    }

    let eventCount: Int
    let lastPosition: UInt64
    let streamCount: Int
    let eventsByType: [String: Int]
    let eventsByCategory: [String: Int]
    let fileSizeBytes: Int
    let mapSizeBytes: Int
    let usedBytes: Int
    let pageSizeBytes: Int
    let readersUsed: UInt32
    let readersMax: UInt32
    let databases: [String: Pages]
    /// Every projection's progress and state; nil when the data directory has no read models.
    let projections: [ProjectionStatus]?

    init(_ statistics: LogStatistics, projections: [ProjectionStatus]?) {
        self.projections = projections
        eventCount = statistics.eventCount
        lastPosition = statistics.lastPosition
        streamCount = statistics.streamCount
        eventsByType = statistics.eventsByType
        eventsByCategory = statistics.eventsByCategory
        fileSizeBytes = statistics.fileSizeBytes
        mapSizeBytes = statistics.environment.mapSizeBytes
        usedBytes = statistics.environment.usedBytes
        pageSizeBytes = statistics.environment.pageSizeBytes
        readersUsed = statistics.environment.readersUsed
        readersMax = statistics.environment.readersMax
        databases = statistics.databases.mapValues {
            Pages(depth: $0.depth, branchPages: $0.branchPages, leafPages: $0.leafPages, overflowPages: $0.overflowPages, entries: $0.entries)
        }
    }

    /// The report for a terminal.
    var lines: [String] {
        var lines = TextColumns.render([
            ["events", String(eventCount)],
            ["last position", String(lastPosition)],
            ["streams", String(streamCount)],
            ["file size", TextColumns.byteCount(fileSizeBytes)],
            ["map size", TextColumns.byteCount(mapSizeBytes)],
            ["used", TextColumns.byteCount(usedBytes)],
            ["page size", "\(pageSizeBytes) bytes"],
            ["readers", "\(readersUsed) used of \(readersMax)"],
        ])
        lines += ["", "events by type"] + Self.counts(eventsByType)
        lines += ["", "events by category"] + Self.counts(eventsByCategory)
        lines += [""] + TextColumns.render(
            [["database", "depth", "branch", "leaf", "overflow", "entries"]] + databaseOrder.map { name in
                let pages = databases[name]!
                return [name] + [Int(pages.depth), pages.branchPages, pages.leafPages, pages.overflowPages, pages.entries].map(String.init)
            },
            numeric: [1, 2, 3, 4, 5]
        )
        lines += [""] + projectionLines
        return lines
    }

    /// One row per projection, then what went wrong with any, so a failure cannot scroll by unseen.
    private var projectionLines: [String] {
        guard let projections else { return ["projections: no read models yet"] }
        var lines = TextColumns.render(
            [["projection", "version", "generation", "checkpoint", "lag", "state"]] + projections.map {
                [$0.name, "\($0.version)", "\($0.generation)", "\($0.checkpoint)", "\($0.lag)", $0.state.rawValue]
            },
            numeric: [1, 2, 3, 4]
        )
        for status in projections {
            if let failure = status.failure {
                lines.append("\(status.name) failed at position \(failure.position): \(failure.reason)")
            }
            if let error = status.lastRebuildError { lines.append("\(status.name) last rebuild failed: \(error)") }
        }
        return lines
    }

    /// The log's own order (records, then indexes), then anything a newer store adds.
    private var databaseOrder: [String] {
        let known = ["events", "streams", "heads", "categories", "types", "tags", "commands", "meta"]
        return known.filter { databases[$0] != nil } + databases.keys.filter { !known.contains($0) }.sorted()
    }

    /// Largest first, so what dominates the log is on top.
    private static func counts(_ counts: [String: Int]) -> [String] {
        guard !counts.isEmpty else { return ["  (none)"] }
        let sorted = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        return TextColumns.render(sorted.map { [$0.key, String($0.value)] }, numeric: [1], indent: "  ")
    }
}
