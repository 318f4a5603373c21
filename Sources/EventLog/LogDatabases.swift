import LMDB

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

    /// The format this build writes and reads; bump it with a migration when layouts change.
    static let formatVersion: UInt32 = 1
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
    }

    /// The indexes `verify` and `stats` report on, by name.
    var indexes: [(name: String, database: Database)] {
        [("streams", streams), ("heads", heads), ("categories", categories), ("types", types),
         ("tags", tags), ("commands", commands)]
    }

    /// Stamps a new log with the format version, or checks an existing one's.
    func checkFormat(_ environment: Environment) throws(EventLogError) {
        let found: UInt32? = try LogDatabases.mapStorage {
            try environment.read { txn in
                try txn.get(meta, LogDatabases.formatKey).map { $0.loadUnaligned(as: UInt32.self).bigEndian }
            }
        }
        if let found {
            guard found == LogDatabases.formatVersion else {
                throw .incompatibleFormat(found: found, supported: LogDatabases.formatVersion)
            }
            return
        }
        guard !environment.options.readOnly else { return }
        try LogDatabases.mapStorage {
            try environment.write { txn in
                var value = [UInt8]()
                value.appendBigEndian(LogDatabases.formatVersion)
                try txn.put(meta, LogDatabases.formatKey, value)
            }
        }
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
