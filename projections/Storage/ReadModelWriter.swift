import LMDB

/// A projection's write access to its own tables, valid during one batch's `apply`.
public struct ReadModelWriter {
    let transaction: WriteTransaction
    let projection: String
    let tables: ReadModelTables
    /// The writes to the projection's `heldTables` waiting for the batch's end; nil when it holds none.
    let held: HeldWrites?
    /// The buffer values are encoded into before each put, reused: a fresh array per value (and
    /// its regrowth for a long one) was an allocation per put on the thread a rebuild waits on.
    private let scratch = ValueScratch()

    init(transaction: WriteTransaction, projection: String, tables: ReadModelTables, held: HeldWrites? = nil) {
        self.transaction = transaction
        self.projection = projection
        self.tables = tables
        self.held = held
    }

    /// Stores `value` under `key` in `table`. A key LMDB cannot store (empty or too long) throws
    /// `LMDBError.keySize`: the deciders refuse input that would make one, so it is a projection
    /// bug, and the batch fails rather than losing the value. In a held table the write waits
    /// for the batch's end; its key is checked now, so a bad one fails at its event.
    public func put<T: ReadModelValue>(_ value: T, at key: String, in table: String) throws {
        if let held, let index = held.index(of: table) {
            try checkKey(key)
            held.add(value, at: key, inTableAt: index)
            return
        }
        try withEncoded(value) { try put(rawValue: $0, at: key, in: table) }
    }

    /// Calls `body` with `value` encoded into the reused buffer.
    private func withEncoded<T: ReadModelValue, R>(_ value: T, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        scratch.writer.removeAll()
        value.encode(to: &scratch.writer)
        return try scratch.writer.bytes.withUnsafeBytes(body)
    }

    /// Stores a batch's `rows` in key order, each table's through one cursor, only the last row
    /// under each key: what `HeldWrites` held, or a `RowProjection`'s rows. `order` is that
    /// storing order when it was worked out beforehand (`storingOrder`, on the thread that made
    /// the rows ahead).
    func store(_ rows: ReadModelRows, inOrder order: [Int32]? = nil) throws {
        let order = order ?? Self.storingOrder(of: rows)
        var start = order.startIndex
        while start < order.endIndex {
            // The order groups rows by table: one cursor for each run.
            let table = rows.table(of: order[start])
            var end = start + 1
            while end < order.endIndex, rows.shareTable(order[end], order[start]) { end += 1 }
            try transaction.withWriteCursor(database(table)) { cursor in
                try rows.forEach(inOrder: order[start..<end]) { key, value in
                    if let value { try cursor.put(keyBytes: key, value) } else { try cursor.delete(keyBytes: key) }
                }
            }
            start = end
        }
    }

    /// The order `store` stores `rows` in: by table and key, so that the puts of one table go
    /// through the B-tree in order instead of from its root at random, and without the rows a
    /// later row under the same key supersedes. Rows of a batch are spread over many lists (each
    /// house's history, each user's activity); put in the events' order, almost every put
    /// searched pages the processor no longer had in its cache.
    static func storingOrder(of rows: ReadModelRows) -> [Int32] {
        rows.lastWrites(in: rows.storingOrder())
    }

    /// Stores every write still held: the batch is at its end.
    func storeHeld() throws {
        guard let held else { return }
        for table in held.waiting { try storeHeld(table) }
    }

    /// Stores what `table` holds, in key order, before anything reads the table.
    private func storeHeld(_ table: String) throws {
        guard let rows = held?.take(table) else { return }
        try store(rows)
    }

    /// Throws `LMDBError.keySize` for a key LMDB cannot store, as its put would.
    private func checkKey(_ key: String) throws {
        let bytes = key.utf8.count
        guard transaction.canStore(keyBytes: bytes) else { throw LMDBError.keySize(bytes: bytes) }
    }

    private func put(rawValue value: UnsafeRawBufferPointer, at key: String, in table: String) throws {
        let database = try database(table)
        try ReadModelKeys.withBytes(of: key) { try transaction.put(database, keyBytes: $0, value) }
    }

    /// Stores `value` under `key` in `table` unless the key is there: false, storing nothing, when
    /// it is (a group's member added again). One search where `value` then `put` make two. In a
    /// held table the key is looked up as `value` looks it up (the last write held under it, else
    /// the table), and the put is held: nothing is stored first.
    public func insert<T: ReadModelValue>(_ value: T, at key: String, in table: String) throws -> Bool {
        let database = try database(table)
        if let held, let index = held.index(of: table) {
            let isThere = try held.latest(key, inTableAt: index) { $0 != nil } ?? isStored(key, in: database)
            guard !isThere else { return false }
            try put(value, at: key, in: table)
            return true
        }
        return try withEncoded(value) { bytes in
            try ReadModelKeys.withBytes(of: key) { try transaction.insert(database, keyBytes: $0, bytes) }
        }
    }

    /// Whether LMDB holds `key` in `database`; a key it cannot store it never holds.
    private func isStored(_ key: String, in database: Database) throws -> Bool {
        guard transaction.canStore(keyBytes: key.utf8.count) else { return false }
        return try ReadModelKeys.withBytes(of: key) { try transaction.reader.get(database, keyBytes: $0) } != nil
    }

    /// The value under `key` in `table`, or nil; nil too for a key LMDB cannot store, which names
    /// nothing (as `ReadModelReader.value`). In a held table, the last write held under `key`
    /// answers when there is one, and nothing is stored first.
    public func value<T: ReadModelValue>(_ type: T.Type, at key: String, in table: String) throws -> T? {
        if let held, let index = held.index(of: table) {
            if let kept = held.kept(type, at: key, inTableAt: index) { return kept }
            if let heldValue = try held.latest(key, inTableAt: index, { try ReadModelCodec.decode(type, $0, table: table, key: key) }) {
                return heldValue
            }
        }
        return try ReadModelReader(transaction: transaction.reader, projection: projection, tables: tables).value(type, at: key, in: table)
    }

    /// Changes the value under `key` in `table` with `change` and stores it back; nothing when
    /// there is none (an event about something the decider never made, which it emits none of).
    /// In a held table the value stays decoded until the batch's end (`HeldWrites.update`), so
    /// the batch's next change of it neither decodes nor encodes it again.
    public func update<T: ReadModelValue>(_ type: T.Type, at key: String, in table: String, _ change: (inout T) throws -> Void) throws {
        if let held, let index = held.index(of: table) {
            // A key LMDB cannot store holds nothing, as `value` answers.
            guard transaction.canStore(keyBytes: key.utf8.count) else { return }
            try held.update(type, at: key, inTableAt: index, load: { try value(type, at: key, in: table) }, change)
            return
        }
        guard var value = try value(type, at: key, in: table) else { return }
        try change(&value)
        try put(value, at: key, in: table)
    }

    /// Removes `key` from `table` if it is there. In a held table the removal waits with the
    /// table's other writes. It does not say whether the key was there: answering would make a
    /// held table that is only written look its keys up (`value` asks, where it must).
    public func delete(_ key: String, in table: String) throws {
        let database = try database(table)
        // A key LMDB cannot store is in no table.
        guard transaction.canStore(keyBytes: key.utf8.count) else { return }
        if let held, let index = held.index(of: table) { return held.addRemoval(of: key, inTableAt: index) }
        _ = try ReadModelKeys.withBytes(of: key) { try transaction.delete(database, keyBytes: $0) }
    }

    /// Every entry of `table` whose key starts with `prefix`, in key order, from one cursor pass:
    /// cheaper than `keys` followed by a `value` per key.
    public func entries<T: ReadModelValue>(_ type: T.Type, in table: String, prefix: String) throws -> [(key: String, value: T)] {
        try storeHeld(table)
        return try ReadModelReader(transaction: transaction.reader, projection: projection, tables: tables)
            .entries(type, in: table, prefix: prefix, limit: .max)
    }

    /// Every key in `table` starting with `prefix`, in byte order (none for a prefix longer than
    /// any stored key).
    public func keys(in table: String, prefix: String) throws -> [String] {
        try storeHeld(table)
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
