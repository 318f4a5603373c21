import Foundation
import LMDB

/// Everything that can go wrong in the event log, as one exhaustive enum.
public enum EventLogError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A stream's version was not the one the append expected. `actual` is nil for no stream.
    case wrongExpectedVersion(streamID: String, expected: ExpectedVersion, actual: UInt64?)
    /// An event matching the append condition's query was appended after the condition's position.
    case appendConditionFailed(conflictingPosition: UInt64, type: String, streamID: String)
    /// The command an append `follows` has not appended: the decision behind the append assumed
    /// events that are not in the log.
    case predecessorMissing(commandID: UUID)
    /// The command id was first recorded with another fingerprint: it names another command,
    /// whose outcome this append must neither take nor reveal.
    case commandIDReused(commandID: UUID)
    /// A value is over one of `EventLogLimits`.
    case limitExceeded(limit: String, value: Int, max: Int)
    /// An argument is malformed (empty, wrong shape, forbidden bytes).
    case invalidArgument(field: String, reason: String)
    /// A stored record failed its checks: the data on disk is damaged.
    case corruptRecord(position: UInt64, reason: String)
    /// The data directory was written by a format this build does not read.
    case incompatibleFormat(found: UInt32, supported: UInt32)
    /// The log was opened read-only and cannot append.
    case readOnly
    /// The log has been closed.
    case closed
    /// Another open store, usually a running server, is the log's writer; only one may append.
    case writerActive(path: String)
    /// LMDB failed (disk full, map at its maximum, I/O error).
    case storage(LMDBError)
    /// The log's database server (PostgreSQL) could not be reached or failed the request. An
    /// append that ends so may or may not have committed: retry it with the same command id.
    case unavailable(reason: String)

    /// A one-line explanation fit for an operator or an API `detail`.
    public var description: String {
        switch self {
        case let .wrongExpectedVersion(stream, expected, actual):
            "stream \(stream): expected version \(expected), actual " + (actual.map { "\($0)" } ?? "no stream")
        case let .appendConditionFailed(position, type, stream):
            "append condition failed: \(type) in \(stream) at position \(position) matches the query"
        case let .predecessorMissing(commandID):
            "the command this append follows, \(commandID), did not append"
        case let .commandIDReused(commandID):
            "command id \(commandID) was first used for another command"
        case let .limitExceeded(limit, value, max):
            "\(limit) exceeded: \(value) > \(max)"
        case let .invalidArgument(field, reason):
            "invalid \(field): \(reason)"
        case let .corruptRecord(position, reason):
            "corrupt record at position \(position): \(reason)"
        case let .incompatibleFormat(found, supported):
            "data directory has format \(found); this build reads format \(supported)"
        case .readOnly:
            "the log is open read-only"
        case .closed:
            "the log is closed"
        case let .writerActive(path):
            "another process (a running server?) is writing to the log in \(path); only one writer at a time"
        case let .storage(error):
            "storage failure: \(error)"
        case let .unavailable(reason):
            "the log's database is unavailable: \(reason)"
        }
    }
}

extension EventLogError {
    /// Wraps an error thrown inside a transaction. Only LMDB and the log itself throw there; the
    /// closures are untyped only because LMDB's closure-taking API is.
    init(_ error: any Error) {
        switch error {
        case let error as EventLogError: self = error
        case let error as LMDBError: self = .storage(error)
        default:
            assertionFailure("unexpected error inside a log transaction: \(error)")
            self = .storage(.invalid)
        }
    }
}
