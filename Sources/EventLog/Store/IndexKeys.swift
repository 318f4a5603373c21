import Foundation

/// Key encodings of the log's databases. Numbers are big-endian so LMDB's byte order is numeric
/// order; names are followed by a NUL separator, which names may not contain, so one name's
/// entries never interleave with another's that it is a prefix of.
enum IndexKeys {
    /// `events`: position.
    static func position(_ position: UInt64) -> [UInt8] {
        var key = [UInt8]()
        key.reserveCapacity(8)
        key.appendBigEndian(position)
        return key
    }

    /// `meta`'s `write-ahead-sequence` value: the last write-ahead frame applied, big-endian as
    /// a position is (read back with `uint64`).
    static func writeAheadSequence(_ sequence: UInt64) -> [UInt8] {
        position(sequence)
    }

    /// `streams`: stream id, NUL, version.
    static func streamVersion(_ streamID: String, _ version: UInt64) -> [UInt8] {
        var key = nameKey(streamID)
        key.appendBigEndian(version)
        return key
    }

    /// `categories`, `types`, `tags`: name, NUL, position.
    static func namePosition(_ name: String, _ position: UInt64) -> [UInt8] {
        var key = nameKey(name)
        key.appendBigEndian(position)
        return key
    }

    /// `categories`, `types`, `tags` from raw name bytes.
    static func namePosition(_ name: UnsafeRawBufferPointer, _ position: UInt64) -> [UInt8] {
        var key = [UInt8](name)
        key.append(0)
        key.appendBigEndian(position)
        return key
    }

    /// The common prefix of every index key of `name`.
    static func nameKey(_ name: String) -> [UInt8] {
        var key = Array(name.utf8)
        key.append(0)
        return key
    }

    /// `heads`: stream id.
    static func head(_ streamID: String) -> [UInt8] { Array(streamID.utf8) }

    /// `commands`: the command id's 16 bytes.
    static func command(_ id: UUID) -> [UInt8] {
        withUnsafeBytes(of: id.uuid) { Array($0) }
    }

    /// Reads a big-endian UInt64 at `offset` of `bytes`.
    static func uint64(_ bytes: UnsafeRawBufferPointer, at offset: Int = 0) -> UInt64 {
        UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// The position at the end of a `name NUL position` key.
    static func trailingPosition(_ key: UnsafeRawBufferPointer) -> UInt64 {
        uint64(key, at: key.count - 8)
    }

    /// Whether `key` starts with `prefix`.
    static func hasPrefix(_ key: UnsafeRawBufferPointer, _ prefix: [UInt8]) -> Bool {
        key.count >= prefix.count && key.prefix(prefix.count).elementsEqual(prefix)
    }
}

/// `heads` values: the stream's last version and the position of that event.
struct StreamHead: Equatable {
    var version: UInt64
    var position: UInt64

    var encoded: [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(16)
        bytes.appendBigEndian(version)
        bytes.appendBigEndian(position)
        return bytes
    }

    init(version: UInt64, position: UInt64) {
        self.version = version
        self.position = position
    }

    init?(_ bytes: UnsafeRawBufferPointer?) {
        guard let bytes, bytes.count == 16 else { return nil }
        version = IndexKeys.uint64(bytes)
        position = IndexKeys.uint64(bytes, at: 8)
    }
}
