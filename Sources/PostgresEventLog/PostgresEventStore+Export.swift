import EventLog
import Foundation
import PostgresNIO

extension PostgresEventStore {
    /// Reads the whole log for `logbook-admin export` as the LMDB log's `export` does, in one
    /// snapshot (a REPEATABLE READ transaction), so servers appending meanwhile cannot tear it:
    /// the chain head, every record with its bytes as stored, in position order, then every
    /// command entry in command id order. The same lines come out of either backend, so an
    /// export of a shared log imports into a data directory and back.
    public func export(
        head: (ChainHead) throws -> Void,
        event: (RecordedEvent, UnsafeRawBufferPointer) throws -> Void,
        command: (ExportedCommand) throws -> Void
    ) async throws(EventLogError) {
        try await database {
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: logger)
                var last: UInt64 = 0
                for try await (position, hash) in try await connection.query("SELECT position, chain_hash FROM logbook_head", logger: logger)
                    .decode((Int64, ByteBuffer).self) {
                    last = UInt64(position)
                    try head(ChainHead(position: last, hash: Array(hash.readableBytesView)))
                }
                let events = try await connection.query(
                    "SELECT position, record FROM logbook_events WHERE position <= \(Int64(last)) ORDER BY position", logger: logger)
                for try await (position, record) in events.decode((Int64, ByteBuffer).self) {
                    let recorded = try PostgresQueries.decode(position: position, record: record)
                    try record.withUnsafeReadableBytes { try event(recorded, $0) }
                }
                let commands = try await connection.query(
                    "SELECT command_id, first_position, last_position, fingerprint FROM logbook_commands ORDER BY command_id", logger: logger)
                for try await (id, first, lastPosition, fingerprint) in commands.decode((UUID, Int64, Int64, ByteBuffer).self) {
                    try command(ExportedCommand(
                        commandID: id, firstPosition: UInt64(first), lastPosition: UInt64(lastPosition),
                        fingerprint: fingerprint.readableBytes == 0 ? nil : Data(fingerprint.readableBytesView)))
                }
            }
        }
    }
}
