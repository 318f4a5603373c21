import CLMDB
import Foundation

/// Every failure the LMDB C API can report, as one Swift error.
///
/// The cases mirror LMDB's own `MDB_*` codes one for one; anything else LMDB returns is an
/// `errno` value from the operating system and lands in `.system`.
public enum LMDBError: Error, Equatable, Sendable, CustomStringConvertible {
    case keyExists
    case notFound
    case pageNotFound
    case corrupted
    case panic
    case versionMismatch
    case invalid
    case mapFull
    case databasesFull
    case readersFull
    case threadLocalStorageFull
    case transactionFull
    case cursorFull
    case pageFull
    case mapResized
    case incompatible
    case badReaderSlot
    case badTransaction
    case badValueSize
    case badDatabaseHandle
    /// A key of zero bytes or of more than the environment's `keyBytesMax`, refused before LMDB
    /// sees it: LMDB stores no such key, so no read can find one and no write can store one.
    case keySize(bytes: Int)
    /// An operating-system error (`errno`), such as `ENOENT` or `EACCES`.
    case system(errno: Int32)

    /// Maps an LMDB return code to its error; `code` must not be `MDB_SUCCESS`.
    public init(code: Int32) {
        precondition(code != MDB_SUCCESS, "MDB_SUCCESS is not an error")
        switch code {
        case MDB_KEYEXIST: self = .keyExists
        case MDB_NOTFOUND: self = .notFound
        case MDB_PAGE_NOTFOUND: self = .pageNotFound
        case MDB_CORRUPTED: self = .corrupted
        case MDB_PANIC: self = .panic
        case MDB_VERSION_MISMATCH: self = .versionMismatch
        case MDB_INVALID: self = .invalid
        case MDB_MAP_FULL: self = .mapFull
        case MDB_DBS_FULL: self = .databasesFull
        case MDB_READERS_FULL: self = .readersFull
        case MDB_TLS_FULL: self = .threadLocalStorageFull
        case MDB_TXN_FULL: self = .transactionFull
        case MDB_CURSOR_FULL: self = .cursorFull
        case MDB_PAGE_FULL: self = .pageFull
        case MDB_MAP_RESIZED: self = .mapResized
        case MDB_INCOMPATIBLE: self = .incompatible
        case MDB_BAD_RSLOT: self = .badReaderSlot
        case MDB_BAD_TXN: self = .badTransaction
        case MDB_BAD_VALSIZE: self = .badValueSize
        case MDB_BAD_DBI: self = .badDatabaseHandle
        default: self = .system(errno: code)
        }
    }

    /// The raw code LMDB uses for this error.
    public var code: Int32 {
        switch self {
        case .keyExists: MDB_KEYEXIST
        case .notFound: MDB_NOTFOUND
        case .pageNotFound: MDB_PAGE_NOTFOUND
        case .corrupted: MDB_CORRUPTED
        case .panic: MDB_PANIC
        case .versionMismatch: MDB_VERSION_MISMATCH
        case .invalid: MDB_INVALID
        case .mapFull: MDB_MAP_FULL
        case .databasesFull: MDB_DBS_FULL
        case .readersFull: MDB_READERS_FULL
        case .threadLocalStorageFull: MDB_TLS_FULL
        case .transactionFull: MDB_TXN_FULL
        case .cursorFull: MDB_CURSOR_FULL
        case .pageFull: MDB_PAGE_FULL
        case .mapResized: MDB_MAP_RESIZED
        case .incompatible: MDB_INCOMPATIBLE
        case .badReaderSlot: MDB_BAD_RSLOT
        case .badTransaction: MDB_BAD_TXN
        case .badValueSize: MDB_BAD_VALSIZE
        case .badDatabaseHandle: MDB_BAD_DBI
        // What LMDB itself would answer for such a key.
        case .keySize: MDB_BAD_VALSIZE
        case .system(let errno): errno
        }
    }

    /// LMDB's own message for the code (it covers `errno` values too).
    public var description: String {
        if case let .keySize(bytes) = self { return "LMDB key of \(bytes) bytes: empty, or longer than the environment's key size limit" }
        return "LMDB error \(code): " + String(cString: mdb_strerror(code))
    }
}

/// Turns an LMDB return code into a thrown error. Every `mdb_*` call that returns a code goes
/// through here, so no failure is silently dropped.
@inline(__always)
func check(_ code: Int32) throws(LMDBError) {
    if code != MDB_SUCCESS { throw LMDBError(code: code) }
}
