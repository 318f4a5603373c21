import EventLog
import PostgresNIO

extension PostgresEventStore {
    /// The check value of the servers' shared secret key that the log holds: `value` when it
    /// held none (this call stored it: the first server on a new log, or on a log written before
    /// the check existed), else the one stored first, for the caller to compare with its own.
    ///
    /// Two first starts at once agree: the insert of the one row waits for the other's, does
    /// nothing, and the read that follows sees the winner's value.
    public func secretCheck(storingIfAbsent value: [UInt8]) async throws(EventLogError) -> [UInt8] {
        try await database {
            _ = try await client.query(
                "INSERT INTO logbook_secret_check (check_value) VALUES (\(ByteBuffer(bytes: value))) ON CONFLICT (singleton) DO NOTHING",
                logger: logger)
            for try await (stored) in try await client.query("SELECT check_value FROM logbook_secret_check", logger: logger)
                .decode(ByteBuffer.self) {
                return Array(stored.readableBytesView)
            }
            throw EventLogError.corruptRecord(position: 0, reason: "logbook_secret_check has no row")
        }
    }
}
