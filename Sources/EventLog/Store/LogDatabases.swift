import LMDB

/// A table of the log, as the write-ahead file names it (the numbers are on disk: never reuse one).
enum LogTable: UInt8, Sendable {
    case events = 0, streams, heads, categories, types, tags, commands, meta, chain
}

/// The named databases of the log environment (DESIGN.md "The event log in LMDB").
struct LogDatabases: Sendable {
    /// position → record.
    let events: Database
    /// stream id NUL version → position.
    let streams: Database
    /// stream id → last version, its position.
    let heads: Database
    /// category NUL position → ∅.
    let categories: Database
    /// type NUL position → ∅.
    let types: Database
    /// tag NUL position → ∅.
    let tags: Database
    /// command id → first position, last position.
    let commands: Database
    /// `format` → format version.
    let meta: Database
    /// an append's first position → the chain hashes of its events (32 bytes each, in order;
    /// `ChainReader`). Nil only in a store opened read-only on a
    /// directory written before the chain (format 1), which a writable open migrates.
    private(set) var chain: Database?

    /// The format this build writes and reads; bump it with a migration when layouts change.
    /// 2: the `chain` database holds every event's hash (docs/record-format.md "Hash chain").
    /// 3: the log may have an index tail (`IndexTail`): events whose `streams`, `categories`,
    /// `types` and `tags` entries are not written yet, which a build before it would not find.
    static let formatVersion: UInt32 = 3
    /// The format before the index tail: read as it is, stamped 3 by a writable open.
    static let formatVersionBeforeIndexTail: UInt32 = 2
    /// The format before the chain: the same records, no `chain` database. Opening it writable
    /// migrates it (`migrateToChain`); read-only, it reads but cannot prove its chain.
    static let formatVersionBeforeChain: UInt32 = 1
    static let formatKey = Array("format".utf8)

    init(environment: Environment) throws(EventLogError) {
        do {
            let create = !environment.options.readOnly
            events = try environment.openDatabase("events", create: create)
            streams = try environment.openDatabase("streams", create: create)
            heads = try environment.openDatabase("heads", create: create)
            categories = try environment.openDatabase("categories", create: create)
            types = try environment.openDatabase("types", create: create)
            tags = try environment.openDatabase("tags", create: create)
            commands = try environment.openDatabase("commands", create: create)
            meta = try environment.openDatabase("meta", create: create)
        } catch .notFound {
            throw .invalidArgument(field: "dataDirectory", reason: "\(environment.path) holds no event log")
        } catch {
            throw .storage(error)
        }
        do {
            chain = try environment.openDatabase("chain", create: !environment.options.readOnly)
        } catch .notFound {
            chain = nil
        } catch {
            throw .storage(error)
        }
    }

    /// The database of `table`; nil only for `chain` on a log before the chain.
    func database(_ table: LogTable) -> Database? {
        switch table {
        case .events: events
        case .streams: streams
        case .heads: heads
        case .categories: categories
        case .types: types
        case .tags: tags
        case .commands: commands
        case .meta: meta
        case .chain: chain
        }
    }

    /// The indexes `verify` and `stats` report on, by name.
    var indexes: [(name: String, database: Database)] {
        [("streams", streams), ("heads", heads), ("categories", categories), ("types", types),
         ("tags", tags), ("commands", commands)]
    }

    /// Stamps a new log with the format version, migrates a log written before the chain when
    /// writable, or checks an existing one's format. Read-only on a log before the chain, `chain`
    /// becomes nil: a `chain` database may exist there, but only a finished migration fills it.
    mutating func checkFormat(_ environment: Environment) throws(EventLogError) {
        let found: UInt32? = try LogDatabases.mapStorage {
            try environment.read { txn in
                try txn.get(meta, LogDatabases.formatKey).map { $0.loadUnaligned(as: UInt32.self).bigEndian }
            }
        }
        switch found {
        case LogDatabases.formatVersion:
            return
        case LogDatabases.formatVersionBeforeIndexTail:
            // Nothing to migrate: a log without the `index-tail` key has no tail.
            if !environment.options.readOnly { try stampFormat(environment) }
        case nil, LogDatabases.formatVersionBeforeChain:
            // nil: a new log, stamped by the same transaction (its chain is empty).
            if environment.options.readOnly {
                chain = nil
            } else {
                try migrateToChain(environment)
            }
        case let found?:
            throw .incompatibleFormat(found: found, supported: LogDatabases.formatVersion)
        }
    }

    /// Writes this build's format version.
    private func stampFormat(_ environment: Environment) throws(EventLogError) {
        try LogDatabases.mapStorage {
            try environment.write { txn in try txn.put(meta, LogDatabases.formatKey, LogDatabases.formatValue) }
        }
    }

    /// This build's format version as `meta` stores it.
    static var formatValue: [UInt8] {
        var value = [UInt8]()
        value.appendBigEndian(formatVersion)
        return value
    }

    /// Runs `body`, turning any error into an `EventLogError`.
    static func mapStorage<T>(_ body: () throws -> T) throws(EventLogError) -> T {
        do {
            return try body()
        } catch {
            throw EventLogError(error)
        }
    }
}
