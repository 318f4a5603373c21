import Foundation
import LMDB

/// A command the log recorded (its `commands` entry), as an export carries it: an append of no
/// events has no record, so only this line keeps its retry answered the same after an import.
public struct ExportedCommand: Sendable, Equatable {
    public let commandID: UUID
    /// The append's first position; one past `lastPosition` for an append of no events.
    public let firstPosition: UInt64
    public let lastPosition: UInt64
    /// The command's fingerprint, when its append carried one.
    public let fingerprint: Data?

    public init(commandID: UUID, firstPosition: UInt64, lastPosition: UInt64, fingerprint: Data?) {
        self.commandID = commandID
        self.firstPosition = firstPosition
        self.lastPosition = lastPosition
        self.fingerprint = fingerprint
    }
}

extension LMDBEventStore {
    /// Reads the whole log for `logbook-admin export` in one snapshot, so a server appending
    /// meanwhile cannot tear it: first the chain head the export ends at, then every record
    /// (decoded, and its bytes exactly as stored, valid only during the call) in position
    /// order, then every command entry in command id order. What an import needs to rebuild the
    /// log byte for byte; index entries are derived from the records and are rebuilt, not copied.
    public func export(
        head: (ChainHead) throws -> Void,
        event: (RecordedEvent, UnsafeRawBufferPointer) throws -> Void,
        command: (ExportedCommand) throws -> Void
    ) throws {
        guard let chain = databases.chain else { throw EventLogError.readOnly }
        try environment.read { txn in
            var reader = ChainReader(chain: chain, txn: txn)
            let last = try txn.withCursor(databases.events) { try $0.last().map { IndexKeys.uint64($0.key) } } ?? 0
            guard let hash = last == 0 ? ChainHash.genesis : try reader.hash(at: last) else {
                throw EventLogError.corruptRecord(position: last, reason: "no chain hash is stored for the last event")
            }
            try head(ChainHead(position: last, hash: hash))
            try txn.withCursor(databases.events) { cursor in
                var entry = try cursor.first()
                while let current = entry, current.key.count == 8, IndexKeys.uint64(current.key) <= last {
                    let position = IndexKeys.uint64(current.key)
                    try event(RecordView(current.value, position: position).decode(position: position), current.value)
                    entry = try cursor.next()
                }
            }
            try txn.withCursor(databases.commands) { cursor in
                var entry = try cursor.first()
                while let current = entry {
                    guard current.key.count == 16, let stored = CommandEntry(current.value) else {
                        throw EventLogError.corruptRecord(position: 0, reason: "a commands entry is malformed")
                    }
                    var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
                    withUnsafeMutableBytes(of: &raw) { $0.copyMemory(from: current.key) }
                    try command(ExportedCommand(
                        commandID: UUID(uuid: raw), firstPosition: stored.firstPosition,
                        lastPosition: stored.lastPosition, fingerprint: stored.fingerprint
                    ))
                    entry = try cursor.next()
                }
            }
        }
    }
}
