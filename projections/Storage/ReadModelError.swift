import EventLog
import EventSourcing
import LMDB

/// Everything that can go wrong with read models.
public enum ReadModelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No projection of that name is registered.
    case unknownProjection(String)
    /// A projection wrote or read a table it did not declare.
    case unknownTable(projection: String, table: String)
    /// A stored value did not decode as the type asked for.
    case undecodable(table: String, key: String, reason: String)
    /// A projection's `apply` threw. The live runner records it as the projection's failure and
    /// goes on without it; a rebuild records it as the rebuild's error.
    case applyFailed(projection: String, position: UInt64, reason: String)
    /// Another rebuild of the projection started and took over this one.
    case rebuildSuperseded(String)
    /// Another process swapped a projection's copy during a batch; the batch is retried.
    case generationMoved(String)
    /// The served copy was built by another version of the projection and a rebuild is replacing
    /// it: its layout is not this code's, so it is not read.
    case rebuilding(String)
    /// The projection failed at `failedAt` (its `apply` threw there) and is not served until a
    /// rebuild recovers it: what it would answer stopped before that event.
    case unavailable(projection: String, failedAt: UInt64)
    /// Read-your-writes waited longer than its bound for the read models to catch up.
    case notCaughtUp(position: UInt64, projected: UInt64)
    /// The log failed while being read.
    case log(EventLogError)
    /// LMDB failed.
    case storage(LMDBError)
    /// The personal-data keys an event needs could not be read (their store did not answer):
    /// not the projection's fault, so the live runner retries the batch instead of failing it.
    case keysUnavailable(reason: String)
    /// Opened to read only, the read models were being written without sync when the machine
    /// restarted (`ReadModelSync.untilFinished`), so they may be torn; the next writer deletes
    /// them and builds them again from the log.
    case unsyncedBeforeRestart

    public var description: String {
        switch self {
        case let .unknownProjection(name): "no projection named \(name)"
        case let .unknownTable(projection, table): "projection \(projection) has no table \(table)"
        case let .undecodable(table, key, reason): "value \(key) of \(table) does not decode: \(reason)"
        case let .applyFailed(projection, position, reason): "projection \(projection) failed at position \(position): \(reason)"
        case let .rebuildSuperseded(name): "another rebuild of \(name) took over"
        case let .generationMoved(name): "the active copy of \(name) changed during a batch"
        case let .rebuilding(name): "projection \(name) is being rebuilt for this version"
        case let .unavailable(name, position): "projection \(name) failed at position \(position) and awaits a rebuild"
        case let .notCaughtUp(position, projected): "read models reached \(projected), not \(position), in time"
        case let .log(error): "event log: \(error)"
        case let .storage(error): "read-model storage: \(error)"
        case let .keysUnavailable(reason): "personal-data keys: \(reason)"
        case .unsyncedBeforeRestart: "the read models were written without sync when the machine restarted; the server builds them again when it starts"
        }
    }

    /// Wraps an error thrown inside a read-model transaction.
    init(_ error: any Error) {
        switch error {
        case let error as ReadModelError: self = error
        case let error as LMDBError: self = .storage(error)
        case let error as EventLogError: self = .log(error)
        default: self = .applyFailed(projection: "?", position: 0, reason: "\(error)")
        }
    }
}

extension ReadModelError {
    /// `body`, which opens personal data a read model keeps sealed (ADR 0009), with its errors
    /// as a query's: a key store that does not answer is `keysUnavailable` (the service, for a
    /// while), anything else (a value that does not open, a record that is not what the read
    /// model says) is `undecodable` as `what` at `key`, a fault of the service. Used by every
    /// query that opens at read time, so they fail alike.
    static func openingPersonalData<T>(_ what: String, key: String, _ body: () throws -> T) throws(ReadModelError) -> T {
        do {
            return try body()
        } catch let error as ReadModelError {
            throw error
        } catch let PersonalDataError.keyStore(_, reason) {
            throw .keysUnavailable(reason: reason)
        } catch {
            throw .undecodable(table: what, key: key, reason: "\(error)")
        }
    }
}
