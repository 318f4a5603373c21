import Foundation
import LMDB

/// Sizes and counts of the log, for `logbook-admin stats`.
public struct LogStatistics: Sendable {
    /// Events stored.
    public var eventCount = 0
    /// The last position (0 when empty).
    public var lastPosition: UInt64 = 0
    /// Distinct streams.
    public var streamCount = 0
    /// Events per type.
    public var eventsByType: [String: Int] = [:]
    /// Events per category.
    public var eventsByCategory: [String: Int] = [:]
    /// Size of `data.mdb` on disk.
    public var fileSizeBytes: Int = 0
    /// The environment's map, pages and readers.
    public var environment: EnvironmentInfo
    /// B-tree statistics per database.
    public var databases: [String: DatabaseStatistics] = [:]
}

extension LMDBEventStore {
    /// Counts by type and category, sizes and page use, from one snapshot.
    public func statistics() throws(EventLogError) -> LogStatistics {
        var statistics = LogStatistics(environment: environment.info())
        let attributes = try? FileManager.default.attributesOfItem(atPath: path + "/data.mdb")
        statistics.fileSizeBytes = (attributes?[.size] as? Int) ?? 0
        try LogDatabases.mapStorage {
            try environment.read { txn in
                for (name, database) in [("events", databases.events)] + databases.indexes + [("meta", databases.meta)] {
                    statistics.databases[name] = try txn.statistics(database)
                }
                statistics.eventCount = statistics.databases["events"]?.entries ?? 0
                statistics.streamCount = statistics.databases["heads"]?.entries ?? 0
                statistics.lastPosition = try txn.withCursor(databases.events) { try $0.last().map { IndexKeys.uint64($0.key) } } ?? 0
                statistics.eventsByType = try countByName(txn, databases.types)
                statistics.eventsByCategory = try countByName(txn, databases.categories)
                // The index tail's events are counted from their records.
                let tail = try indexTail(in: txn)
                for (table, counts) in [(LogTable.types, \LogStatistics.eventsByType), (.categories, \.eventsByCategory)] {
                    for name in tail.names(in: table) {
                        statistics[keyPath: counts][name, default: 0] += tail.entries(in: table, name: name).count
                    }
                }
            }
        }
        return statistics
    }

    /// Counts `name NUL position` entries per name by walking the keys only.
    private func countByName(_ txn: Transaction, _ index: Database) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        try txn.withCursor(index) { cursor in
            var entry = try cursor.first()
            while let current = entry {
                let nameBytes = UnsafeRawBufferPointer(rebasing: current.key[0..<(current.key.count - 9)])
                let name = String(decoding: nameBytes, as: UTF8.self)
                let count = try countRun(&cursor, prefix: IndexKeys.nameKey(name))
                counts[name] = count
                entry = try cursor.seek(atOrAfter: IndexKeys.namePosition(name, .max) + [0])
            }
        }
        return counts
    }

    /// Counts entries starting at the cursor that share `prefix`.
    private func countRun(_ cursor: inout Cursor, prefix: [UInt8]) throws -> Int {
        var count = 1
        while let next = try cursor.next(), IndexKeys.hasPrefix(next.key, prefix) { count += 1 }
        return count
    }
}
