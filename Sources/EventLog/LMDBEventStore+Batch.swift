import LMDB

extension LMDBEventStore {
    /// The log's events from `position` until `limit` of them or the log's end, in one read
    /// transaction and one array: the projection runner's batch. Read as pages and joined, every
    /// record was copied (each of its references retained and released) once more. Its record
    /// bytes stay within what the pages it stands for could hold (`readPageBytesMax` for every
    /// `readPageEventsMax` events), so large events never make a batch larger than paging did.
    public func readBatch(from position: UInt64, limit: Int) throws(EventLogError) -> [RecordedEvent] {
        guard limit >= 1 else { throw .invalidArgument(field: "limit", reason: "must be at least 1") }
        let bytesMax = pageBytesMax * max(1, limit / options.limits.readPageEventsMax)
        return try LogDatabases.mapStorage {
            try environment.read { txn in
                try txn.withCursor(databases.events) { cursor in
                    var events: [RecordedEvent] = []
                    events.reserveCapacity(min(limit, 1_024))
                    var strings = RepeatedStrings()
                    var entry = try cursor.seek(atOrAfter: IndexKeys.position(position))
                    var bytes = 0
                    while let current = entry, events.count < limit, events.isEmpty || bytes + current.value.count <= bytesMax {
                        bytes += current.value.count
                        let position = IndexKeys.uint64(current.key)
                        events.append(try RecordView(current.value, position: position).decode(position: position, reusing: &strings))
                        entry = try cursor.next()
                    }
                    return events
                }
            }
        }
    }
}
