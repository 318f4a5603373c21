import CLMDB

/// A position in a database's sorted keys, valid only inside `withCursor`.
///
/// Every move returns the entry it lands on, or nil when there is none; the buffers point into
/// the map and are valid until the transaction ends.
public struct Cursor {
    /// A key and its value.
    public typealias Entry = (key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)

    let pointer: OpaquePointer
    /// The longest key the environment stores (`Environment.keyBytesMax`).
    let keyBytesMax: Int

    /// The first entry.
    public mutating func first() throws -> Entry? { try move(MDB_FIRST) }
    /// The last entry.
    public mutating func last() throws -> Entry? { try move(MDB_LAST) }
    /// The entry after the current one.
    public mutating func next() throws -> Entry? { try move(MDB_NEXT) }
    /// The entry before the current one.
    public mutating func previous() throws -> Entry? { try move(MDB_PREV) }

    /// The first entry whose key is `key` or sorts after it.
    ///
    /// Seeking takes any key, also ones LMDB cannot store (empty, or over `keyBytesMax`): every
    /// byte string has a place in the key order, so a prefix or paging key built from a client's
    /// input finds where it would sort instead of failing.
    public mutating func seek(atOrAfter key: [UInt8]) throws -> Entry? {
        // LMDB rejects empty keys, but every key sorts after the empty one.
        if key.isEmpty { return try first() }
        guard key.count > keyBytesMax else { return try setRange(key) }
        // No stored key is as long as `key`, so none equals it, and a stored key sorts after it
        // exactly when it sorts after `head`, its first `keyBytesMax` bytes: a stored key that
        // starts with `head` is `head` (which sorts before `key`); any other differs from `key`
        // within `head`.
        let head = Array(key.prefix(keyBytesMax))
        guard let found = try setRange(head) else { return nil }
        return found.key.elementsEqual(head) ? try next() : found
    }

    /// The last entry whose key is `key` or sorts before it. Takes any key, as `seek(atOrAfter:)`.
    public mutating func seek(atOrBefore key: [UInt8]) throws -> Entry? {
        if key.isEmpty { return nil }  // nothing sorts before the empty key
        // A stored key sorts at or before an over-long `key` exactly when it sorts at or before
        // its first `keyBytesMax` bytes (the reasoning of `seek(atOrAfter:)`).
        let key = key.count > keyBytesMax ? Array(key.prefix(keyBytesMax)) : key
        guard let found = try seek(atOrAfter: key) else { return try last() }
        if found.key.elementsEqual(key) { return found }
        return try previous()
    }

    /// `MDB_SET_RANGE` for a key LMDB accepts (1 to `keyBytesMax` bytes).
    private mutating func setRange(_ key: [UInt8]) throws -> Entry? {
        assert(!key.isEmpty && key.count <= keyBytesMax, "only storable keys reach LMDB")
        return try key.withUnsafeBytes { keyBytes in
            var keyValue = MDB_val(bytes: keyBytes)
            var data = MDB_val()
            let status = mdb_cursor_get(pointer, &keyValue, &data, MDB_SET_RANGE)
            if status == MDB_NOTFOUND { return nil }
            try check(status)
            return (keyValue.buffer, data.buffer)
        }
    }

    private mutating func move(_ operation: MDB_cursor_op) throws -> Entry? {
        var keyValue = MDB_val()
        var data = MDB_val()
        let status = mdb_cursor_get(pointer, &keyValue, &data, operation)
        if status == MDB_NOTFOUND { return nil }
        try check(status)
        return (keyValue.buffer, data.buffer)
    }
}
