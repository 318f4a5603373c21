import LMDB

/// A projection's write access to its own tables, valid during one `apply`.
public struct ReadModelWriter {
    let transaction: WriteTransaction
    let projection: String
    let tables: [String: Database]

    /// Stores `value` under `key` in `table`.
    public func put<T: ReadModelValue>(_ value: T, at key: String, in table: String) throws {
        try put(encoded: value.encodedBytes(), at: key, in: table)
    }

    /// `value`'s stored bytes, for storing one value under many keys without encoding it for each.
    public func encoded<T: ReadModelValue>(_ value: T) -> [UInt8] {
        value.encodedBytes()
    }

    /// Stores bytes from `encoded(_:)` under `key` in `table`.
    public func put(encoded value: [UInt8], at key: String, in table: String) throws {
        try transaction.put(database(table), Array(key.utf8), value)
    }

    /// The value under `key` in `table`, or nil.
    public func value<T: ReadModelValue>(_ type: T.Type, at key: String, in table: String) throws -> T? {
        try ReadModelCodec.decode(type, try transaction.get(database(table), Array(key.utf8)), table: table, key: key)
    }

    /// Removes `key` from `table`; false when it was not there.
    @discardableResult
    public func delete(_ key: String, in table: String) throws -> Bool {
        try transaction.delete(database(table), Array(key.utf8))
    }

    /// Every entry of `table` whose key starts with `prefix`, in key order, from one cursor pass:
    /// cheaper than `keys` followed by a `value` per key.
    public func entries<T: ReadModelValue>(_ type: T.Type, in table: String, prefix: String) throws -> [(key: String, value: T)] {
        try ReadModelReader(transaction: transaction.reader, projection: projection, tables: tables)
            .entries(type, in: table, prefix: prefix, limit: .max)
    }

    /// Every key in `table` starting with `prefix`, in byte order.
    public func keys(in table: String, prefix: String) throws -> [String] {
        let prefixBytes = Array(prefix.utf8)
        return try transaction.withCursor(database(table)) { cursor in
            var keys: [String] = []
            var entry = try cursor.seek(atOrAfter: prefixBytes)
            while let current = entry, current.key.starts(with: prefixBytes) {
                keys.append(String(decoding: current.key, as: UTF8.self))
                entry = try cursor.next()
            }
            return keys
        }
    }

    private func database(_ table: String) throws -> Database {
        guard let database = tables[table] else { throw ReadModelError.unknownTable(projection: projection, table: table) }
        return database
    }
}
