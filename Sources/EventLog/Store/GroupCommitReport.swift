/// What one group commit of the log's writer did, for an observer outside the log (the server's
/// metrics): how many appends shared the commit, what they wrote, and how long the commit took.
///
/// The log reports plain values instead of recording metrics itself, so it depends on no metrics
/// library and the caller decides what to count (`EventStoreOptions.commitObserver`).
public struct GroupCommitReport: Sendable, Equatable {
    /// Append requests in the committed write transaction (the batch size).
    public var requests: Int
    /// Events written by the batch per event type; replayed commands write none.
    public var eventsByType: [String: Int]
    /// How long `mdb_txn_commit` took: the fsync of the batch, unless `unsafeNoSync` is set.
    public var commitDuration: Duration

    /// A report of a commit of `requests` appends.
    public init(requests: Int, eventsByType: [String: Int], commitDuration: Duration) {
        self.requests = requests
        self.eventsByType = eventsByType
        self.commitDuration = commitDuration
    }
}
