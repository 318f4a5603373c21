/// Where a key store keeps its data keys, each sealed under the server's secret: a directory of
/// the data directory (`PersonalDataKeyFiles`), or a table shared by every server on one log
/// (`PostgresKeyTable`). The storage sees only sealed bytes; sealing, opening and the cache are
/// `PersonalDataKeyStore`'s.
public protocol PersonalDataKeyStorage: Sendable {
    /// `subject`'s entry, or nil when it has none.
    func entry(of subject: String) throws -> StoredDataKey?
    /// Stores `sealed` as `subject`'s key unless it has an entry already, and returns the entry
    /// that holds afterwards: ours, or the one another server (or thread) stored first. Two
    /// concurrent calls for one subject therefore agree on one key.
    func create(_ sealed: [UInt8], for subject: String) throws -> StoredDataKey
    /// Destroys `subject`'s key and records that it was erased, durably. Idempotent.
    func erase(_ subject: String) throws
}

/// What a key storage holds for one subject.
public enum StoredDataKey: Sendable, Equatable {
    /// The data key, sealed (ChaChaPoly under the store's sealing key, the subject as
    /// authenticated data).
    case sealed([UInt8])
    /// The subject was erased: its key is gone and no new one is ever made.
    case erased
}
