import EventLog
import Projections

/// Why the tool stopped, with the exit status it stops with.
enum AdminError: Error, CustomStringConvertible {
    /// Neither `--data-dir` nor the environment variable names a directory.
    case noDataDirectory
    /// The named data directory is not there.
    case dataDirectoryNotFound(String)
    /// The directory exists but its log could not be opened.
    case cannotOpen(String, EventLogError)
    /// The read models in the data directory could not be opened.
    case cannotOpenReadModels(String, ReadModelError)
    /// `verify` found problems; the report is already on stdout.
    case damaged(problemCount: Int)
    /// `verify` itself stopped at damage before it could finish its report.
    case verifyStopped(EventLogError)
    /// The log was written before the hash chain and has not been migrated yet.
    case noChain
    /// A `--head` argument is not `POS:HASH`.
    case malformedHead(String)
    /// A verb that works on the data directory's own log was given a PostgreSQL one.
    case notOnSharedLog

    /// The log is damaged or a read failed.
    static let failureStatus: Int32 = 1
    /// The invocation is wrong or the data directory unusable: nothing was read.
    static let usageStatus: Int32 = 2

    var description: String {
        switch self {
        case .noDataDirectory:
            "no data directory: pass --data-dir DIR or set \(DataDirectoryOption.environmentVariable)"
        case let .dataDirectoryNotFound(path):
            "data directory \(path) does not exist or is not a directory"
        case let .cannotOpen(path, error):
            "cannot open the event log in \(path): \(error.description)"
        case let .cannotOpenReadModels(path, error):
            "cannot open the read models in \(path): \(error.description)"
        case let .damaged(problemCount):
            "the log is damaged: \(problemCount) problem" + (problemCount == 1 ? "" : "s")
        case let .verifyStopped(error):
            "the log is damaged; verify stopped at: \(error.description)"
        case .noChain:
            "the log was written before the hash chain; run logbook-admin migrate (or start the server on it) once to compute it"
        case let .malformedHead(text):
            "--head \(text): expected POS:HASH, a position, a colon and 64 hexadecimal digits"
        case .notOnSharedLog:
            "this verb works on the data directory's own log, and --event-store (or LOGBOOK_EVENT_STORE) names a PostgreSQL log; "
                + "on PostgreSQL, events, stream, audit, tail, head, verify, export and replay work, and the database is backed up with its own tools (pg_dump)"
        }
    }

    var exitStatus: Int32 {
        switch self {
        case .noDataDirectory, .dataDirectoryNotFound, .cannotOpen, .cannotOpenReadModels, .malformedHead, .notOnSharedLog: Self.usageStatus
        case .damaged, .verifyStopped, .noChain: Self.failureStatus
        }
    }
}
