import ArgumentParser
import EventLog
import PostgresEventLog
import Foundation

/// `--data-dir`, shared by every verb, and how the log in it is opened.
struct DataDirectoryOption: ParsableArguments {
    /// Lets an operator set the directory once per shell instead of on every call.
    static let environmentVariable = "LOGBOOK_DATA_DIR"

    @Option(
        name: .customLong("data-dir"),
        help: ArgumentHelp("The data directory; the log is in its log/ subdirectory. Default: $LOGBOOK_DATA_DIR.", valueName: "dir")
    )
    var path: String?

    @Option(
        name: .customLong("event-store"),
        help: ArgumentHelp(
            "The log's PostgreSQL (postgres://user[:password]@host[:port]/database), for a log shared by servers; read verbs read it instead of the data directory's log. Default: $LOGBOOK_EVENT_STORE.",
            valueName: "url")
    )
    var eventStore: String?

    /// The PostgreSQL log named by `--event-store` or `LOGBOOK_EVENT_STORE`, if any.
    var eventStoreURL: String? {
        (eventStore ?? ProcessInfo.processInfo.environment["LOGBOOK_EVENT_STORE"]).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The log the read verbs read: the PostgreSQL one when named, else the data directory's,
    /// read-only (see `openStore`).
    func openLog() async throws(AdminError) -> EventLogBackend {
        guard let url = eventStoreURL else { return .lmdb(try openStore()) }
        do {
            return .postgres(try await PostgresEventStore.connect(to: PostgresLocation(url: url)))
        } catch {
            throw .cannotOpen((try? PostgresLocation(url: url).description) ?? "the --event-store URL", error)
        }
    }

    /// The directory to use; errors when none is given or it does not exist.
    func resolvedPath() throws(AdminError) -> String {
        guard let path = path ?? ProcessInfo.processInfo.environment[Self.environmentVariable], !path.isEmpty else {
            throw .noDataDirectory
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .dataDirectoryNotFound(path)
        }
        return path
    }

    /// Opens the log read-only: the server may be appending to the same directory, and a
    /// read-only environment can neither take the writer lock from it nor create files. Refused
    /// when a PostgreSQL log is named: the data directory then holds no log, and a verb that
    /// read an empty one would answer for the wrong log.
    func openStore() throws(AdminError) -> LMDBEventStore {
        guard eventStoreURL == nil else { throw .notOnSharedLog }
        let path = try resolvedPath()
        var options = EventStoreOptions()
        options.readOnly = true
        do {
            return try LMDBEventStore(dataDirectory: path, options: options)
        } catch {
            throw .cannotOpen(path, error)
        }
    }

    /// Opens the log for writing, for the verbs that append or migrate; it refuses while a
    /// server holds the writer lock.
    func openWritableStore() throws(AdminError) -> LMDBEventStore {
        guard eventStoreURL == nil else { throw .notOnSharedLog }
        let path = try resolvedPath()
        do {
            return try LMDBEventStore(dataDirectory: path)
        } catch {
            throw .cannotOpen(path, error)
        }
    }
}
