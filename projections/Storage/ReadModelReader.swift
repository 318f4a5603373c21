import LMDB

/// Read access to one projection's active copy, valid inside `ReadModels.read`.
public struct ReadModelReader {
    let transaction: Transaction
    let projection: String
    let tables: ReadModelTables

    /// The value under `key` in `table`, or nil. Nil too for a key LMDB cannot store (empty or
    /// too long): keys are often a client's input (an e-mail, a join code), and such a key names
    /// nothing, so the query answers "not found" rather than failing.
    public func value<T: ReadModelValue>(_ type: T.Type, at key: String, in table: String) throws -> T? {
        let database = try database(table)
        guard transaction.canStore(keyBytes: key.utf8.count) else { return nil }
        let bytes = try ReadModelKeys.withBytes(of: key) { try transaction.get(database, keyBytes: $0) }
        return try ReadModelCodec.decode(type, bytes, table: table, key: key)
    }

    /// Up to `limit` entries of `table` whose keys start with `prefix`, in key order (or reverse),
    /// starting after the key `after` when given: a cursor for paging. Any prefix and `after` are
    /// accepted (cursor seeks take keys LMDB cannot store); a prefix longer than any stored key
    /// has no entries.
    public func entries<T: ReadModelValue>(
        _ type: T.Type, in table: String, prefix: String = "", after: String? = nil, reverse: Bool = false, limit: Int
    ) throws -> [(key: String, value: T)] {
        precondition(limit >= 0, "a page holds no fewer than zero entries")
        let prefixBytes = Array(prefix.utf8)
        return try transaction.withCursor(database(table)) { cursor in
            var entries: [(key: String, value: T)] = []
            var entry = try firstEntry(&cursor, prefix: prefixBytes, after: after.map { Array($0.utf8) }, reverse: reverse)
            while let current = entry, entries.count < limit, current.key.starts(with: prefixBytes) {
                let key = String(decoding: current.key, as: UTF8.self)
                entries.append((key, try ReadModelCodec.decode(type, current.value, table: table, key: key)!))
                entry = reverse ? try cursor.previous() : try cursor.next()
            }
            return entries
        }
    }

    private func firstEntry(_ cursor: inout Cursor, prefix: [UInt8], after: [UInt8]?, reverse: Bool) throws -> Cursor.Entry? {
        if let after {
            if reverse {
                guard let found = try cursor.seek(atOrBefore: after) else { return nil }
                return found.key.elementsEqual(after) ? try cursor.previous() : found
            }
            guard let found = try cursor.seek(atOrAfter: after) else { return nil }
            return found.key.elementsEqual(after) ? try cursor.next() : found
        }
        if !reverse { return try cursor.seek(atOrAfter: prefix) }
        // The last key with this prefix sorts before the prefix followed by 0xFF bytes.
        return try cursor.seek(atOrBefore: prefix + [UInt8](repeating: 0xFF, count: 8))
    }

    private func database(_ table: String) throws -> Database {
        guard let database = tables[table] else { throw ReadModelError.unknownTable(projection: projection, table: table) }
        return database
    }
}

/// Decoding of stored values, with the table and key in the error.
enum ReadModelCodec {
    static func decode<T: ReadModelValue>(_ type: T.Type, _ bytes: UnsafeRawBufferPointer?, table: String, key: String) throws(ReadModelError) -> T? {
        guard let bytes else { return nil }
        do {
            return try T.decode(from: bytes)
        } catch {
            throw ReadModelError.undecodable(table: table, key: key, reason: "\(error)")
        }
    }
}
