import LMDB

/// A projection's write access to its own tables, valid during one `apply`.
public struct ReadModelWriter {
    let transaction: WriteTransaction
    let projection: String
    let tables: ReadModelTables
    /// The buffer values are encoded into before each put, reused: a fresh array per value (and
    /// its regrowth for a long one) was an allocation per put on the thread a rebuild waits on.
    private let scratch = ValueScratch()

    /// Stores `value` under `key` in `table`. A key LMDB cannot store (empty or too long) throws
    /// `LMDBError.keySize`: the deciders refuse input that would make one, so it is a projection
    /// bug, and the batch fails rather than losing the value.
    public func put<T: ReadModelValue>(_ value: T, at key: String, in table: String) throws {
        scratch.writer.removeAll()
        value.encode(to: &scratch.writer)
        try scratch.writer.bytes.withUnsafeBytes { try put(rawValue: $0, at: key, in: table) }
    }

    /// `value`'s stored bytes, for storing one value under many keys without encoding it for each.
    public func encoded<T: ReadModelValue>(_ value: T) -> [UInt8] {
        value.encodedBytes()
    }

    /// Stores bytes from `encoded(_:)` under `key` in `table`.
    public func put(encoded value: [UInt8], at key: String, in table: String) throws {
        try value.withUnsafeBytes { try put(rawValue: $0, at: key, in: table) }
    }

    /// Whether LMDB stores a key of `keyBytes` bytes.
    func canStore(keyBytes: Int) -> Bool {
        transaction.canStore(keyBytes: keyBytes)
    }

    /// Stores the rows of `prepared` from row `first` on in their storing order, the rows of
    /// each table through one cursor. When a put throws, `failedRow` is its row.
    func put(_ prepared: PreparedRows, from first: Int, failedRow: inout Int?) throws {
        let order = prepared.order
        precondition(order.count == prepared.rows.count, "prepared rows are sorted for storing before they are put")
        var start = order.startIndex
        while start < order.endIndex {
            // The order groups rows by table: one cursor for each run.
            let table = prepared.rows.table(of: order[start])
            var end = start + 1
            while end < order.endIndex, prepared.rows.table(of: order[end]) == table { end += 1 }
            try transaction.withWriteCursor(database(table)) { cursor in
                try prepared.rows.forEach(inOrder: order[start..<end], from: first) { index, key, value in
                    failedRow = index
                    try cursor.put(keyBytes: key, value)
                }
            }
            start = end
        }
        failedRow = nil
    }

    private func put(rawValue value: UnsafeRawBufferPointer, at key: String, in table: String) throws {
        let database = try database(table)
        try ReadModelKeys.withBytes(of: key) { try transaction.put(database, keyBytes: $0, value) }
    }

    /// The value under `key` in `table`, or nil; nil too for a key LMDB cannot store, which names
    /// nothing (as `ReadModelReader.value`).
    public func value<T: ReadModelValue>(_ type: T.Type, at key: String, in table: String) throws -> T? {
        try ReadModelReader(transaction: transaction.reader, projection: projection, tables: tables).value(type, at: key, in: table)
    }

    /// Changes the value under `key` in `table` with `change` and stores it back; nothing when
    /// there is none (an event about something the decider never made, which it emits none of).
    public func update<T: ReadModelValue>(_ type: T.Type, at key: String, in table: String, _ change: (inout T) throws -> Void) throws {
        guard var value = try value(type, at: key, in: table) else { return }
        try change(&value)
        try put(value, at: key, in: table)
    }

    /// Removes `key` from `table`; false when it was not there, as a key LMDB cannot store never is.
    @discardableResult
    public func delete(_ key: String, in table: String) throws -> Bool {
        let database = try database(table)
        guard transaction.canStore(keyBytes: key.utf8.count) else { return false }
        return try ReadModelKeys.withBytes(of: key) { try transaction.delete(database, keyBytes: $0) }
    }

    /// Every entry of `table` whose key starts with `prefix`, in key order, from one cursor pass:
    /// cheaper than `keys` followed by a `value` per key.
    public func entries<T: ReadModelValue>(_ type: T.Type, in table: String, prefix: String) throws -> [(key: String, value: T)] {
        try ReadModelReader(transaction: transaction.reader, projection: projection, tables: tables)
            .entries(type, in: table, prefix: prefix, limit: .max)
    }

    /// Every key in `table` starting with `prefix`, in byte order (none for a prefix longer than
    /// any stored key).
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

/// `ReadModelWriter`'s reused encoding buffer. A class, so that the writer stays a value passed
/// to `apply` while its puts share one buffer; used only on the engine's thread, one put at a time.
private final class ValueScratch {
    var writer = ValueWriter(capacity: 256)
}
