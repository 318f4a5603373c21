import Foundation

/// What a checkpoint of the write-ahead log saved (ADR 0006): the write-ahead sequence its
/// snapshot holds, the boot it was taken in, and a copy of LMDB's two meta pages as they were
/// made durable, which put back over `data.mdb` reopen LMDB at that snapshot.
struct WriteAheadCheckpoint: Equatable {
    var generation: UInt64
    var sequence: UInt64
    /// The write-ahead file (0 or 1) that holds the frames after it, from its start.
    var file: Int
    var bootID: String
    var metaPages: [UInt8]

    /// Whether it was taken in the boot `bootID` names, so that the page cache still holds every
    /// write since: an unknown boot (nil) is never the same one.
    func isOfBoot(_ bootID: String?) -> Bool {
        bootID == self.bootID
    }
}

/// `<log>/checkpoint`: two slots written in turn (generation odd or even), each checksummed,
/// so that a checkpoint torn by a power failure leaves the one before it readable.
/// Used by one thread at a time: the log's writer, or the checkpoint running while it waits.
///
/// Slot layout, integers big-endian: magic (8 bytes), CRC-32C of the rest of the slot (4),
/// the write-ahead file after it (4), generation (8), sequence (8), boot id bytes (2) and the boot id padded to 64, meta
/// page bytes (4) and the meta pages.
final class WriteAheadCheckpointFile: @unchecked Sendable {
    static let name = "checkpoint"
    static let magic: UInt64 = 0x4C42_434B_5054_3031  // "LBCKPT01"
    static let headerBytes = 8 + 4 + 4 + 8 + 8 + 2 + 64 + 4
    static let slotBytes = 64 << 10
    static let bootIDBytesMax = 64

    private let file: RawFile

    init(directory: String) throws(EventLogError) {
        let path = (directory as NSString).appendingPathComponent(Self.name)
        let existed = FileManager.default.fileExists(atPath: path)
        file = try RawFile(path: path, creating: true)
        if !existed { try RawFile.syncDirectory(directory) }
    }

    /// Opens `<directory>/checkpoint` to read it only; nil when there is none.
    private init?(readingOnlyIn directory: String) throws(EventLogError) {
        guard Self.exists(in: directory) else { return nil }
        file = try RawFile(readingOnly: (directory as NSString).appendingPathComponent(Self.name))
    }

    static func exists(in directory: String) -> Bool {
        FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent(name))
    }

    /// The newest intact checkpoint in `directory`, read without writing anything; nil when
    /// there is no checkpoint file or no slot holds one.
    static func latest(in directory: String) throws(EventLogError) -> WriteAheadCheckpoint? {
        guard let checkpoints = try WriteAheadCheckpointFile(readingOnlyIn: directory) else { return nil }
        defer { checkpoints.close() }
        return try checkpoints.latest()
    }

    /// The newest intact checkpoint; nil when no slot holds one.
    func latest() throws(EventLogError) -> WriteAheadCheckpoint? {
        var best: WriteAheadCheckpoint?
        for slot in 0..<2 {
            let bytes = try file.read(Self.slotBytes, at: slot * Self.slotBytes)
            guard let found = Self.decode(bytes) else { continue }
            if best.map({ found.generation > $0.generation }) ?? true { best = found }
        }
        return best
    }

    /// Writes `checkpoint` durably into its generation's slot, leaving the other slot's.
    func write(_ checkpoint: WriteAheadCheckpoint) throws(EventLogError) {
        try file.write(Self.encode(checkpoint), at: Int(checkpoint.generation % 2) * Self.slotBytes)
        try file.sync()
    }

    func close() {
        file.close()
    }

    static func encode(_ checkpoint: WriteAheadCheckpoint) -> [UInt8] {
        let boot = Array(checkpoint.bootID.utf8.prefix(bootIDBytesMax))
        precondition(headerBytes + checkpoint.metaPages.count <= slotBytes, "two meta pages fit a slot")
        var bytes = [UInt8]()
        bytes.reserveCapacity(headerBytes + checkpoint.metaPages.count)
        bytes.appendBigEndian(magic)
        bytes.appendBigEndian(UInt32(0))  // the checksum, filled in below
        bytes.appendBigEndian(UInt32(checkpoint.file))
        bytes.appendBigEndian(checkpoint.generation)
        bytes.appendBigEndian(checkpoint.sequence)
        bytes.appendBigEndian(UInt16(boot.count))
        bytes += boot + [UInt8](repeating: 0, count: bootIDBytesMax - boot.count)
        bytes.appendBigEndian(UInt32(checkpoint.metaPages.count))
        bytes += checkpoint.metaPages
        let checksum = bytes.withUnsafeBytes { CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[12...])) }
        withUnsafeBytes(of: checksum.bigEndian) { bytes.replaceSubrange(8..<12, with: $0) }
        return bytes
    }

    static func decode(_ bytes: [UInt8]) -> WriteAheadCheckpoint? {
        bytes.withUnsafeBytes { raw -> WriteAheadCheckpoint? in
            guard raw.count >= headerBytes, IndexKeys.uint64(raw, at: 0) == magic else { return nil }
            let metaBytes = Int(UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: headerBytes - 4, as: UInt32.self)))
            guard metaBytes <= raw.count - headerBytes else { return nil }
            let stored = UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
            guard CRC32C.checksum(UnsafeRawBufferPointer(rebasing: raw[12..<headerBytes + metaBytes])) == stored else { return nil }
            let bootBytes = Int(UInt16(bigEndian: raw.loadUnaligned(fromByteOffset: 32, as: UInt16.self)))
            let file = Int(UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: 12, as: UInt32.self)))
            guard bootBytes <= bootIDBytesMax, file < 2 else { return nil }
            return WriteAheadCheckpoint(
                generation: IndexKeys.uint64(raw, at: 16), sequence: IndexKeys.uint64(raw, at: 24), file: file,
                bootID: String(decoding: raw[34..<34 + bootBytes], as: UTF8.self),
                metaPages: Array(raw[headerBytes..<headerBytes + metaBytes]))
        }
    }
}
