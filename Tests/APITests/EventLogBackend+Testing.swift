import EventLog
import PostgresEventLog

extension EventLogBackend {
    /// The LMDB log of a test server on a data directory (all but the shared-log tests' servers),
    /// for the tests that read it directly and synchronously.
    var lmdb: LMDBEventStore {
        guard case let .lmdb(store) = self else { preconditionFailure("this test server's log is not in its data directory") }
        return store
    }
}
