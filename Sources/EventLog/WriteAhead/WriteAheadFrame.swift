import Foundation

/// One write to a table of the log, as the write-ahead file holds it: replaying it is `put`.
struct WriteAheadPut: Equatable, Sendable {
    let table: LogTable
    let key: [UInt8]
    let value: [UInt8]
}

/// A committed batch's writes as one checksummed frame of the write-ahead file (ADR 0006).
///
/// Layout, integers big-endian: magic (4 bytes), CRC-32C of everything after it (4), sequence
/// (8), payload bytes (4), zero (4); then the payload: per write, the table (1), key bytes (2),
/// value bytes (4), the key, the value. A frame that is cut short, or whose checksum, magic or
/// sequence does not match, ends the file: it was never acknowledged.
enum WriteAheadFrame {
    static let magic: UInt32 = 0x4C42_5752  // "LBWR"
    static let headerBytes = 24
    /// The largest payload a frame may claim: a reader never allocates more on a torn length.
    static let payloadBytesMax = 1 << 31

    static func encode(sequence: UInt64, puts: [WriteAheadPut]) -> [UInt8] {
        let payloadBytes = puts.reduce(0) { $0 + 7 + $1.key.count + $1.value.count }
        precondition(payloadBytes < payloadBytesMax, "a batch's writes fit one frame")
        var bytes = [UInt8]()
        bytes.reserveCapacity(headerBytes + payloadBytes)
        bytes.appendBigEndian(magic)
        bytes.appendBigEndian(UInt32(0))  // the checksum, filled in below
        bytes.appendBigEndian(sequence)
        bytes.appendBigEndian(UInt32(payloadBytes))
        bytes.appendBigEndian(UInt32(0))
        for put in puts {
            assert(put.key.count <= Int(UInt16.max), "LMDB keys are at most 511 bytes")
            bytes.append(put.table.rawValue)
            bytes.appendBigEndian(UInt16(put.key.count))
            bytes.appendBigEndian(UInt32(put.value.count))
            bytes += put.key
            bytes += put.value
        }
        let checksum = bytes.withUnsafeBytes { CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[8...])) }
        withUnsafeBytes(of: checksum.bigEndian) { bytes.replaceSubrange(4..<8, with: $0) }
        return bytes
    }

    /// A frame's sequence and payload size, read from its header; nil unless the magic matches.
    static func header(_ bytes: UnsafeRawBufferPointer) -> (sequence: UInt64, payloadBytes: Int)? {
        guard bytes.count >= headerBytes, uint32(bytes, at: 0) == magic else { return nil }
        let payloadBytes = Int(uint32(bytes, at: 16))
        guard payloadBytes < payloadBytesMax else { return nil }
        return (IndexKeys.uint64(bytes, at: 8), payloadBytes)
    }

    /// The writes of the whole frame `bytes` (header and payload); nil when its checksum or
    /// structure does not hold.
    static func puts(_ bytes: UnsafeRawBufferPointer) -> [WriteAheadPut]? {
        guard let (_, payloadBytes) = header(bytes), bytes.count == headerBytes + payloadBytes else { return nil }
        let stored = uint32(bytes, at: 4)
        guard CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[8...])) == stored else { return nil }
        var puts: [WriteAheadPut] = []
        var at = headerBytes
        while at < bytes.count {
            guard bytes.count - at >= 7, let table = LogTable(rawValue: bytes[at]) else { return nil }
            let keyBytes = Int(UInt16(bigEndian: bytes.loadUnaligned(fromByteOffset: at + 1, as: UInt16.self)))
            let valueBytes = Int(uint32(bytes, at: at + 3))
            at += 7
            guard bytes.count - at >= keyBytes + valueBytes else { return nil }
            puts.append(WriteAheadPut(
                table: table, key: Array(bytes[at..<at + keyBytes]), value: Array(bytes[at + keyBytes..<at + keyBytes + valueBytes])))
            at += keyBytes + valueBytes
        }
        return puts
    }

    private static func uint32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
}
