import CLMDB

/// A position in a database's sorted keys, valid only inside `withCursor`.
///
/// Every move returns the entry it lands on, or nil when there is none; the buffers point into
/// the map and are valid until the transaction ends.
public struct Cursor {
    /// A key and its value.
    public typealias Entry = (key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)

    let pointer: OpaquePointer

    /// The first entry.
    public mutating func first() throws -> Entry? { try move(MDB_FIRST) }
    /// The last entry.
    public mutating func last() throws -> Entry? { try move(MDB_LAST) }
    /// The entry after the current one.
    public mutating func next() throws -> Entry? { try move(MDB_NEXT) }
    /// The entry before the current one.
    public mutating func previous() throws -> Entry? { try move(MDB_PREV) }

    /// The first entry whose key is `key` or sorts after it.
    public mutating func seek(atOrAfter key: [UInt8]) throws -> Entry? {
        // LMDB rejects empty keys, but every key sorts after the empty one.
        if key.isEmpty { return try first() }
        return try key.withUnsafeBytes { keyBytes in
            var keyValue = MDB_val(bytes: keyBytes)
            var data = MDB_val()
            let status = mdb_cursor_get(pointer, &keyValue, &data, MDB_SET_RANGE)
            if status == MDB_NOTFOUND { return nil }
            try check(status)
            return (keyValue.buffer, data.buffer)
        }
    }

    /// The last entry whose key is `key` or sorts before it.
    public mutating func seek(atOrBefore key: [UInt8]) throws -> Entry? {
        if key.isEmpty { return nil }  // nothing sorts before the empty key
        guard let found = try seek(atOrAfter: key) else { return try last() }
        if found.key.elementsEqual(key) { return found }
        return try previous()
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
