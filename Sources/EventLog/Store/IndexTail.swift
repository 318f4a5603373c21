import LMDB

/// The log's index tail (docs/decisions/0008): the events after the last one whose `streams`,
/// `categories`, `types` and `tags` entries are in the B-trees, with the entries they will get.
///
/// Under load the writer writes those entries once the tail is long enough, all together and in
/// key order, instead of at every commit: a stream or a tag of its own per writer otherwise costs
/// a leaf page per event per index. Every reader reads the B-trees and the tail of the same
/// snapshot, so what it finds does not depend on where the entries are.
///
/// `meta`'s `index-tail` says where the tail starts: eight bytes, the first position without
/// entries. Absent or empty, the log has no tail (every log before format 3, and every log at
/// rest: a flush empties it).
struct IndexTail: Sendable {
    /// One event's entry for one name: `trailing` is what the key ends with (the stream version
    /// in `streams`, the position elsewhere).
    struct Entry: Equatable, Sendable {
        let trailing: UInt64
        let position: UInt64
    }

    /// The first position of the tail; the tail is empty when no event lies at or after it.
    private(set) var start: UInt64
    /// Events in the tail.
    private(set) var count = 0
    /// Per index, per name, the tail's entries in position order.
    private var entries: [LogTable: [String: [Entry]]] = [:]
    /// The last position a reader of this tail sees: the writer's tail, read in an older
    /// snapshot, may hold events after it.
    private var visibleThrough = UInt64.max

    static let metaKey = Array("index-tail".utf8)
    /// The indexes the tail defers; the others are written at every commit.
    static let tables: [LogTable] = [.streams, .categories, .types, .tags]

    /// An empty tail that starts at `start`.
    init(startingAt start: UInt64) {
        self.start = start
    }

    var isEmpty: Bool { count == 0 }

    /// Takes in the event at `position`, which must follow every event already in the tail.
    mutating func add(streamID: String, version: UInt64, type: String, tags: [String], at position: UInt64) {
        assert(position >= start && position >= start + UInt64(count), "the tail grows in position order")
        if isEmpty { start = position }
        count += 1
        entries[.streams, default: [:]][streamID, default: []].append(Entry(trailing: version, position: position))
        entries[.categories, default: [:]][StreamName.category(of: streamID), default: []].append(Entry(trailing: position, position: position))
        entries[.types, default: [:]][type, default: []].append(Entry(trailing: position, position: position))
        for tag in tags {
            entries[.tags, default: [:]][tag, default: []].append(Entry(trailing: position, position: position))
        }
    }

    /// The last position of the tail; the one before `start` when it is empty.
    var last: UInt64 { isEmpty ? max(start, 1) - 1 : start + UInt64(count) - 1 }

    /// The tail's entries of `name` in `table`, in position order (so in `trailing` order too).
    func entries(in table: LogTable, name: String) -> [Entry] {
        let all = entries[table]?[name] ?? []
        guard visibleThrough < last else { return all }
        return all.filter { $0.position <= visibleThrough }
    }

    /// The names of `table` the tail has entries for.
    func names(in table: LogTable) -> [String] {
        guard let byName = entries[table] else { return [] }
        guard visibleThrough < last else { return Array(byName.keys) }
        return byName.compactMap { name, entries in entries.first!.position <= visibleThrough ? name : nil }
    }

    /// This tail as a snapshot whose last position is `head` sees it.
    func seen(through head: UInt64) -> IndexTail {
        var seen = self
        seen.visibleThrough = head
        return seen
    }

    /// Every entry as the B-trees hold it, table by table and in key order, so that the puts of
    /// one leaf follow each other.
    func indexPuts() -> [WriteAheadPut] {
        var puts: [WriteAheadPut] = []
        puts.reserveCapacity(count * 4)
        for table in Self.tables {
            guard let byName = entries[table] else { continue }
            let names = byName.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for name in names {
                for entry in byName[name]! {
                    if table == .streams {
                        let position = IndexKeys.position(entry.position)
                        puts.append(WriteAheadPut(table: table, key: IndexKeys.streamVersion(name, entry.trailing), value: position))
                    } else {
                        puts.append(WriteAheadPut(table: table, key: IndexKeys.namePosition(name, entry.position), value: []))
                    }
                }
            }
        }
        return puts
    }

    /// Where the stored tail starts, or nil when the log has none.
    static func storedStart(_ databases: LogDatabases, _ txn: Transaction) throws -> UInt64? {
        guard let value = try txn.get(databases.meta, metaKey), value.count == 8 else { return nil }
        return IndexKeys.uint64(value)
    }

    /// `meta`'s value for a tail starting at `start`; empty for none.
    static func metaValue(start: UInt64?) -> [UInt8] {
        start.map { IndexKeys.position($0) } ?? []
    }

    /// The tail of the snapshot `txn` reads, from its records from `start` (`storedStart`) on:
    /// at most the writer's `IndexTailPolicy.eventsMax` records, or what a process that stopped
    /// mid-load left.
    static func read(_ databases: LogDatabases, _ txn: Transaction, from start: UInt64) throws -> IndexTail {
        var tail = IndexTail(startingAt: start)
        try txn.withCursor(databases.events) { cursor in
            var entry = try cursor.seek(atOrAfter: IndexKeys.position(start))
            while let current = entry {
                let position = IndexKeys.uint64(current.key)
                let record = try RecordView(current.value, position: position)
                tail.add(streamID: record.streamID, version: record.streamVersion, type: record.type, tags: record.tags, at: position)
                entry = try cursor.next()
            }
        }
        return tail
    }
}

/// When the writer writes the index tail (docs/decisions/0008, 0017).
public struct IndexTailPolicy: Sendable {
    /// The most events the tail holds before a batch writes it; 0: every batch writes its own
    /// entries, as a log without the tail does. The default is every log's, the server's
    /// included: under many writers a leaf of `streams` and `tags` is then written for many
    /// events instead of one; 1,024 gained no more, and its flush, some 4,000 puts in one
    /// commit, lengthened the slowest appends (docs/benchmarks.md, "The index tail").
    public var eventsMax = 256
    /// Whether a batch that no append waits behind writes the tail, so that a lone writer
    /// indexes every commit and a log at rest has no tail. Tests turn it off to keep one.
    public var flushesWhenIdle = true

    /// A tail of up to `eventsMax` events, written whenever no append waits.
    public init() {}

    /// Whether the writer ever keeps a tail.
    var defers: Bool { eventsMax > 0 }

    /// Whether a batch of `requests` appends, after `tail`, adds its events to the tail rather
    /// than writing their entries: only while appends share commits (the batch holds several, or
    /// more wait) or a tail is already there. A lone writer's batch, which `flushes` would write
    /// at once anyway, then takes the path of a log without the tail: keeping and sorting its
    /// entries first only added to its latency.
    func defers(after tail: IndexTail, requests: Int, appendsWaiting: () -> Bool) -> Bool {
        defers && (!flushesWhenIdle || !tail.isEmpty || requests > 1 || appendsWaiting())
    }

    /// Whether the batch that leaves `tail` writes it.
    func flushes(_ tail: IndexTail, appendsWaiting: () -> Bool) -> Bool {
        // With `eventsMax` 0 any tail is long enough: one a stopped writer left is written at once.
        guard !tail.isEmpty else { return false }
        return tail.count >= eventsMax || (flushesWhenIdle && !appendsWaiting())
    }
}

/// The writer's tail as its last commit left it, with where `meta` says it starts: readers of
/// the same process take it instead of reading the tail's records (`LMDBEventStore.indexTail(in:)`).
struct PublishedTail: Sendable {
    let storedStart: UInt64?
    let tail: IndexTail
}

extension LMDBEventStore {
    /// The index tail of the log's current snapshot.
    func indexTail() throws(EventLogError) -> IndexTail {
        try LogDatabases.mapStorage { try environment.read { try indexTail(in: $0) } }
    }

    /// The index tail of the snapshot `txn` reads. Its records are read only when this process's
    /// writer has not published the same tail: `meta` names where a tail starts, each new tail
    /// starts after the last, so a published tail with the same start that reaches the
    /// snapshot's last position holds the snapshot's tail (and perhaps events after it, which
    /// the snapshot does not see).
    func indexTail(in txn: Transaction) throws -> IndexTail {
        guard readsIndexTail else { return IndexTail(startingAt: 0) }
        guard let start = try IndexTail.storedStart(databases, txn) else { return IndexTail(startingAt: 0) }
        if let published = publishedTail, published.storedStart == start {
            let head = try txn.withCursor(databases.events) { try $0.last().map { IndexKeys.uint64($0.key) } } ?? 0
            if published.tail.start == start, published.tail.last >= head { return published.tail.seen(through: head) }
        }
        return try IndexTail.read(databases, txn, from: start)
    }
}
