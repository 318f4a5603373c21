import Crypto

/// The hash chain over the log (docs/record-format.md "Hash chain").
///
/// The hash of the event at position P is SHA-256 of the hash at P − 1 followed by the record
/// stored at P, byte for byte (checksum included); the hash "before" position 1 is 32 zero
/// bytes. So the hash at P commits to every stored record up to P, and rewriting any of them,
/// even with a recomputed CRC, changes every hash from there on.
package enum ChainHash {
    /// Bytes of one hash (SHA-256).
    package static let bytes = 32
    /// The hash before the first event.
    package static let genesis = [UInt8](repeating: 0, count: bytes)

    /// The hash of `record` following `previous`.
    static func after(_ previous: [UInt8], record: UnsafeRawBufferPointer) -> [UInt8] {
        // Raw buffers and a bytewise copy of the digest: the generic `DataProtocol` update and
        // the digest's element-by-element iteration cost a quarter as much as the hashing itself
        // on the writer thread (perf, logbook-bench bulk).
        var hasher = SHA256()
        previous.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        hasher.update(bufferPointer: record)
        return hasher.finalize().withUnsafeBytes { Array($0) }
    }

    /// `after(_:record:)` for a record held in an array.
    package static func after(_ previous: [UInt8], record: [UInt8]) -> [UInt8] {
        record.withUnsafeBytes { after(previous, record: $0) }
    }
}
