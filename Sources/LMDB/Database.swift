import CLMDB

/// A handle to a named database inside an `Environment`.
///
/// Handles are opened once, in a committed transaction, and stay valid for the environment's
/// life; they are plain integers and safe to share between threads.
public struct Database: Sendable, Hashable {
    let handle: MDB_dbi
    /// The database's name in the environment.
    public let name: String
}
