import CLMDB

/// A read view of the environment, valid only inside the closure that received it.
///
/// Buffers it returns point into LMDB's memory map: read them (or copy what you keep) before the
/// closure returns.
public struct Transaction {
    let pointer: OpaquePointer
    /// The longest key the environment stores (`Environment.keyBytesMax`).
    public let keyBytesMax: Int

    /// Whether a key of `keyBytes` bytes can be stored: LMDB keys hold 1 to `keyBytesMax` bytes.
    /// A lookup of any other key cannot find anything, and `get`, `put` and `delete` refuse it.
    public func canStore(keyBytes: Int) -> Bool {
        keyBytes >= 1 && keyBytes <= keyBytesMax
    }

    /// The value stored under `key`, or nil when there is none. Throws `.keySize` for a key
    /// `canStore(keyBytes:)` refuses, instead of handing it to LMDB.
    public func get(_ database: Database, _ key: [UInt8]) throws -> UnsafeRawBufferPointer? {
        try key.withUnsafeBytes { keyBytes in try get(database, keyBytes: keyBytes) }
    }

    /// `get(_:_:)` for a key in memory the caller holds (a string's UTF-8), without copying it
    /// into an array first.
    public func get(_ database: Database, keyBytes key: UnsafeRawBufferPointer) throws -> UnsafeRawBufferPointer? {
        try checkKey(key)
        var keyValue = MDB_val(bytes: key)
        var data = MDB_val()
        let status = mdb_get(pointer, database.handle, &keyValue, &data)
        if status == MDB_NOTFOUND { return nil }
        try check(status)
        return data.buffer
    }

    /// Opens a cursor on `database` for the duration of `body`.
    public func withCursor<T>(_ database: Database, _ body: (inout Cursor) throws -> T) throws -> T {
        var raw: OpaquePointer?
        try check(mdb_cursor_open(pointer, database.handle, &raw))
        guard let raw else { throw LMDBError.badTransaction }
        defer { mdb_cursor_close(raw) }
        var cursor = Cursor(pointer: raw, keyBytesMax: keyBytesMax)
        return try body(&cursor)
    }

    /// B-tree statistics of `database` as this transaction sees it.
    public func statistics(_ database: Database) throws -> DatabaseStatistics {
        var stat = MDB_stat()
        try check(mdb_stat(pointer, database.handle, &stat))
        return DatabaseStatistics(
            depth: stat.ms_depth,
            branchPages: stat.ms_branch_pages,
            leafPages: stat.ms_leaf_pages,
            overflowPages: stat.ms_overflow_pages,
            entries: stat.ms_entries
        )
    }

    /// The invariant at the boundary: no key of zero or over-limit length reaches LMDB, whose
    /// answer to one (`MDB_BAD_VALSIZE`) would not say which key or why.
    func checkKey(_ key: UnsafeRawBufferPointer) throws(LMDBError) {
        if !canStore(keyBytes: key.count) { throw .keySize(bytes: key.count) }
    }
}

/// A write transaction: everything a `Transaction` reads (including its own uncommitted writes)
/// plus changes. Valid only inside the closure passed to `Environment.write`.
public struct WriteTransaction {
    /// The read side of this transaction; it sees the writes made so far.
    public let reader: Transaction

    init(pointer: OpaquePointer, keyBytesMax: Int) {
        reader = Transaction(pointer: pointer, keyBytesMax: keyBytesMax)
    }

    /// The longest key the environment stores (`Environment.keyBytesMax`).
    public var keyBytesMax: Int { reader.keyBytesMax }

    /// Whether a key of `keyBytes` bytes can be stored (`Transaction.canStore(keyBytes:)`).
    public func canStore(keyBytes: Int) -> Bool {
        reader.canStore(keyBytes: keyBytes)
    }

    /// The value stored under `key`, or nil when there is none.
    public func get(_ database: Database, _ key: [UInt8]) throws -> UnsafeRawBufferPointer? {
        try reader.get(database, key)
    }

    /// Opens a cursor on `database` for the duration of `body`.
    public func withCursor<T>(_ database: Database, _ body: (inout Cursor) throws -> T) throws -> T {
        try reader.withCursor(database, body)
    }

    /// Stores `value` under `key`; throws `.keySize` for a key LMDB cannot store.
    public func put(_ database: Database, _ key: [UInt8], _ value: [UInt8], flags: PutFlags = []) throws {
        try value.withUnsafeBytes { valueBytes in
            try put(database, key, valueBytes, flags: flags)
        }
    }

    /// Stores the bytes of `value` under `key`; throws `.keySize` for a key LMDB cannot store.
    public func put(
        _ database: Database, _ key: [UInt8], _ value: UnsafeRawBufferPointer, flags: PutFlags = []
    ) throws {
        try key.withUnsafeBytes { keyBytes in try put(database, keyBytes: keyBytes, value, flags: flags) }
    }

    /// `put(_:_:_:flags:)` for a key in memory the caller holds (a string's UTF-8), without
    /// copying it into an array first: the read models' writer puts millions of keys in a rebuild.
    public func put(
        _ database: Database, keyBytes key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer, flags: PutFlags = []
    ) throws {
        try check(putStatus(database, keyBytes: key, value, flags: flags))
    }

    /// Stores the bytes of `value` under `key` unless the key is there; false, storing nothing,
    /// when it is. One search of the tree where asking first and then putting takes two.
    /// Throws `.keySize` for a key LMDB cannot store.
    public func insert(_ database: Database, keyBytes key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws -> Bool {
        let status = try putStatus(database, keyBytes: key, value, flags: .noOverwrite)
        if status == MDB_KEYEXIST { return false }
        try check(status)
        return true
    }

    /// `mdb_put`'s status for `key` and `value`, after checking the key's size.
    private func putStatus(
        _ database: Database, keyBytes key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer, flags: PutFlags
    ) throws -> Int32 {
        try reader.checkKey(key)
        var keyValue = MDB_val(bytes: key)
        var data = MDB_val(bytes: value)
        return mdb_put(reader.pointer, database.handle, &keyValue, &data, flags.rawValue)
    }

    /// Removes `key`; returns false when it was not there. Throws `.keySize` for a key LMDB
    /// cannot store.
    @discardableResult
    public func delete(_ database: Database, _ key: [UInt8]) throws -> Bool {
        try key.withUnsafeBytes { keyBytes in try delete(database, keyBytes: keyBytes) }
    }

    /// `delete(_:_:)` for a key in memory the caller holds, without copying it into an array.
    @discardableResult
    public func delete(_ database: Database, keyBytes key: UnsafeRawBufferPointer) throws -> Bool {
        try reader.checkKey(key)
        var keyValue = MDB_val(bytes: key)
        let status = mdb_del(reader.pointer, database.handle, &keyValue, nil)
        if status == MDB_NOTFOUND { return false }
        try check(status)
        return true
    }

    /// Removes every entry of `database`, keeping the database itself.
    public func clear(_ database: Database) throws {
        try check(mdb_drop(reader.pointer, database.handle, 0))
    }

    /// Deletes `database` itself from the environment (its handle is closed): what a data
    /// directory written before the database existed looks like.
    public func drop(_ database: Database) throws {
        try check(mdb_drop(reader.pointer, database.handle, 1))
    }
}

/// Flags for `WriteTransaction.put`.
public struct PutFlags: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Fail with `.keyExists` instead of overwriting.
    public static let noOverwrite = PutFlags(rawValue: UInt32(MDB_NOOVERWRITE))
    /// The key sorts after every existing key: LMDB appends without searching (fails otherwise).
    public static let append = PutFlags(rawValue: UInt32(MDB_APPEND))
}

extension MDB_val {
    init(bytes: UnsafeRawBufferPointer) {
        self.init(mv_size: bytes.count, mv_data: UnsafeMutableRawPointer(mutating: bytes.baseAddress))
    }

    var buffer: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: mv_data, count: mv_size)
    }
}
