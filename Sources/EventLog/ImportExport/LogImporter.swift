import Foundation
import LMDB

/// Writes an exported log (`LMDBEventStore.export`) into an empty data directory, records
/// exactly as given: positions, stream versions, times, actors and command ids are the
/// original's, so the imported log's chain head is the original's too.
///
/// Records are checked as a read checks them (checksum, layout, position), must run gap-free
/// from 1 with each stream's versions from 0, and are chained as they go; `finish` refuses a
/// head other than the one the export promised. Everything is written under `log.importing`
/// and renamed to `log` only after that check, so a refused import leaves nothing a server or
/// `verify` would take for a log (`abandon` removes it). Writes go in transactions of at most
/// `recordsPerTransactionMax` records, each begun and committed on the caller's thread.
public final class LogImporter {
    /// Records per write transaction: a bound on the dirty pages one commit holds.
    public static let recordsPerTransactionMax = 1_000
    static let stagingName = "log.importing"

    private let logPath: String
    private let stagingPath: String
    private var environment: Environment?
    private let databases: LogDatabases
    private var head: UInt64 = 0
    private var chainHash = ChainHash.genesis
    /// Each stream's last version so far: the next record of the stream must follow it.
    private var streamVersions: [String: UInt64] = [:]
    private var pendingRecords: [[UInt8]] = []
    private var commands: [ExportedCommand] = []

    /// Prepares an import into `dataDirectory`, which must be empty or not exist yet.
    public init(dataDirectory: String) throws(EventLogError) {
        let files = FileManager.default
        if files.fileExists(atPath: dataDirectory) {
            let contents = (try? files.contentsOfDirectory(atPath: dataDirectory)) ?? ["?"]
            guard contents.isEmpty else {
                throw .invalidArgument(field: "dataDirectory", reason: "\(dataDirectory) is not empty; import only into an empty data directory")
            }
        }
        logPath = (dataDirectory as NSString).appendingPathComponent("log")
        stagingPath = (dataDirectory as NSString).appendingPathComponent(Self.stagingName)
        do {
            try files.createDirectory(atPath: stagingPath, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .invalidArgument(field: "dataDirectory", reason: "cannot create \(stagingPath): \(error.localizedDescription)")
        }
        do {
            let environment = try Environment(path: stagingPath, options: EnvironmentOptions())
            let opened = try LogDatabases(environment: environment)
            try LogDatabases.mapStorage {
                try environment.write { txn in
                    try txn.put(opened.meta, LogDatabases.formatKey, LogDatabases.formatValue)
                }
            }
            self.environment = environment
            databases = opened
        } catch {
            try? files.removeItem(atPath: stagingPath)
            throw EventLogError(error)
        }
    }

    /// The next record, exactly as stored in the exported log.
    public func add(record: [UInt8]) throws(EventLogError) {
        let position = head + UInt64(pendingRecords.count) + 1
        let (streamID, version) = try LogDatabases.mapStorage {
            try record.withUnsafeBytes { bytes in
                let view = try RecordView(bytes, position: position)
                return (view.streamID, view.streamVersion)
            }
        }
        let expected = streamVersions[streamID].map { $0 + 1 } ?? 0
        guard version == expected else {
            throw .corruptRecord(position: position, reason: "stream \(streamID) version \(version), expected \(expected)")
        }
        streamVersions[streamID] = version
        pendingRecords.append(record)
        if pendingRecords.count >= Self.recordsPerTransactionMax { try flush() }
    }

    /// A command entry, written once every record is in (it may name any position).
    public func add(command: ExportedCommand) {
        commands.append(command)
    }

    /// Writes what is left, checks the chain reaches `expected`, and only then makes the log
    /// visible as `log`. On any error, call `abandon`.
    public func finish(expecting expected: ChainHead) throws(EventLogError) {
        try flush()
        guard head == expected.position, chainHash == expected.hash else {
            throw .corruptRecord(
                position: head,
                reason: "the records chain to \(ChainHead(position: head, hash: chainHash)), not to the header's \(expected)"
            )
        }
        var seen = Set<UUID>()
        for command in commands {
            guard seen.insert(command.commandID).inserted,
                  command.firstPosition >= 1, command.firstPosition <= command.lastPosition + 1, command.lastPosition <= head,
                  (command.fingerprint?.count ?? 0) <= EventLogLimits.fingerprintBytesMax
            else {
                throw .invalidArgument(field: "command", reason: "command \(command.commandID) is repeated or names positions outside the log")
            }
        }
        for start in stride(from: 0, to: commands.count, by: Self.recordsPerTransactionMax) {
            let batch = commands[start..<min(start + Self.recordsPerTransactionMax, commands.count)]
            try write { txn, databases in
                for command in batch {
                    let entry = CommandEntry(firstPosition: command.firstPosition, lastPosition: command.lastPosition, fingerprint: command.fingerprint)
                    try txn.put(databases.commands, IndexKeys.command(command.commandID), entry.encoded, flags: .noOverwrite)
                }
            }
        }
        environment = nil  // closes it before the rename
        do {
            try FileManager.default.moveItem(atPath: stagingPath, toPath: logPath)
        } catch {
            throw .invalidArgument(field: "dataDirectory", reason: "cannot rename \(stagingPath) to \(logPath): \(error.localizedDescription)")
        }
    }

    /// Removes everything a refused import wrote.
    public func abandon() {
        environment = nil
        try? FileManager.default.removeItem(atPath: stagingPath)
    }

    /// Writes the pending records, their index entries and one chain entry in one transaction.
    private func flush() throws(EventLogError) {
        guard !pendingRecords.isEmpty else { return }
        let records = pendingRecords
        let first = head + 1
        var finalHash = chainHash
        let startHash = chainHash
        try write { txn, databases in
            // The closure may run again when the map grows: it starts from the state before it.
            var previous = startHash
            var hashes = [UInt8]()
            hashes.reserveCapacity(records.count * ChainHash.bytes)
            for (offset, record) in records.enumerated() {
                let position = first + UInt64(offset)
                try record.withUnsafeBytes { bytes in
                    let view = try RecordView(bytes, position: position)
                    var positionValue = [UInt8]()
                    positionValue.appendBigEndian(position)
                    try txn.put(databases.events, IndexKeys.position(position), record, flags: .append)
                    let streamID = view.streamID
                    try txn.put(databases.streams, IndexKeys.streamVersion(streamID, view.streamVersion), positionValue)
                    try txn.put(databases.heads, IndexKeys.head(streamID), StreamHead(version: view.streamVersion, position: position).encoded)
                    try txn.put(databases.categories, IndexKeys.namePosition(StreamName.category(of: streamID), position), [])
                    try txn.put(databases.types, IndexKeys.namePosition(view.typeBytes, position), [])
                    for tag in view.tags {
                        try txn.put(databases.tags, IndexKeys.namePosition(tag, position), [])
                    }
                    previous = ChainHash.after(previous, record: bytes)
                    hashes += previous
                }
            }
            try txn.put(databases.chain!, IndexKeys.position(first), hashes, flags: .append)
            finalHash = previous
        }
        head = first + UInt64(records.count) - 1
        chainHash = finalHash
        pendingRecords.removeAll(keepingCapacity: true)
    }

    private func write(_ body: (WriteTransaction, LogDatabases) throws -> Void) throws(EventLogError) {
        guard let environment else { throw .closed }
        let databases = databases
        try LogDatabases.mapStorage { try environment.write { txn in try body(txn, databases) } }
    }
}
