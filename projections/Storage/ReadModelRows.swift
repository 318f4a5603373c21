import Foundation

/// Rows to store, keys and encoded values back to back in one buffer: a batch's writes, stored in
/// key order at its end (`ReadModelWriter.store`). What a `RowProjection` makes of a batch's
/// events (on the thread that reads a batch ahead, when it has the time, so that the engine's
/// thread only hands each row to LMDB), and the writes a projection's `heldTables` wait with
/// (`HeldWrites`), removals among them.
public struct ReadModelRows: Sendable {
    /// One row: its table (an index into `tables`), where its key and value lie in `buffer`, and
    /// its key's first eight bytes as a big-endian number, which orders most pairs of keys
    /// without comparing their bytes; a removal has no value.
    struct Row: Sendable {
        let table: Int32
        let keyStart: Int
        let valueStart: Int
        let end: Int
        let keyPrefix: UInt64
        let removes: Bool
    }

    private(set) var buffer = ValueWriter(capacity: 256)
    private(set) var rows: [Row] = []
    /// The tables the rows name, each once: a batch's rows name a handful, and a row holding its
    /// table's name was a retain per row and a string comparison per pair sorted.
    private var tables: [String] = []

    /// No rows.
    public init() {}

    /// Adds `value` under `key` in `table`, as `ReadModelWriter.put` would store it.
    public mutating func add<T: ReadModelValue>(_ value: T, at key: String, in table: String) {
        append(key: key, in: table, removes: false) { value.encode(to: &$0) }
    }

    /// Adds the removal of `key` from `table`.
    mutating func addRemoval(of key: String, in table: String) {
        append(key: key, in: table, removes: true) { _ in }
    }

    /// Appends `key`, then what `writeValue` writes, to the buffer, and the row that spans them.
    private mutating func append(key: String, in table: String, removes: Bool, writeValue: (inout ValueWriter) -> Void) {
        let keyStart = buffer.bytes.count
        buffer.appendRaw(key.utf8)
        let valueStart = buffer.bytes.count
        writeValue(&buffer)
        let keyPrefix = buffer.bytes.withUnsafeBytes { Self.prefix(of: UnsafeRawBufferPointer(rebasing: $0[keyStart..<valueStart])) }
        rows.append(Row(
            table: index(of: table), keyStart: keyStart, valueStart: valueStart, end: buffer.bytes.count, keyPrefix: keyPrefix,
            removes: removes))
    }

    /// `table`'s index in `tables`, added when new. Rows mostly come in runs of one table, so the
    /// last row's is tried first.
    private mutating func index(of table: String) -> Int32 {
        if let last = rows.last, tables[Int(last.table)] == table { return last.table }
        if let known = tables.firstIndex(of: table) { return Int32(known) }
        tables.append(table)
        return Int32(tables.count - 1)
    }

    /// The first eight bytes of `key` as a big-endian number, zeros after a shorter key: two keys
    /// whose prefixes differ are ordered as their prefixes are, as LMDB orders them (bytes, then
    /// length); equal prefixes leave the keys to be compared byte by byte.
    private static func prefix(of key: UnsafeRawBufferPointer) -> UInt64 {
        var prefix: UInt64 = 0
        for index in 0..<8 {
            prefix <<= 8
            if index < key.count { prefix |= UInt64(key[index]) }
        }
        return prefix
    }

    /// How many rows were added.
    var count: Int { rows.count }

    /// Appends `other`'s rows after these.
    mutating func append(contentsOf other: ReadModelRows) {
        let shift = buffer.bytes.count
        buffer.appendRaw(other.buffer.bytes)
        var tableIndices: [Int32] = []
        for table in other.tables { tableIndices.append(index(of: table)) }
        rows.reserveCapacity(rows.count + other.rows.count)
        for row in other.rows {
            rows.append(Row(
                table: tableIndices[Int(row.table)], keyStart: row.keyStart + shift, valueStart: row.valueStart + shift,
                end: row.end + shift, keyPrefix: row.keyPrefix, removes: row.removes))
        }
    }

    /// The indices of the rows, ordered as they are best stored: by table, then by key as LMDB
    /// orders keys (bytes, then length); rows under one key keep their order, so the last one
    /// put is the last one added, as when putting them in turn.
    func storingOrder() -> [Int32] {
        precondition(rows.count <= Int(Int32.max), "a batch's rows are counted in Int32")
        // Each table's rank among the tables sorted by name: rows compare ranks, not names.
        var rank = [Int32](repeating: 0, count: tables.count)
        for (position, table) in tables.indices.sorted(by: { tables[$0] < tables[$1] }).enumerated() { rank[table] = Int32(position) }
        var order = (0..<Int32(rows.count)).map { $0 }
        buffer.bytes.withUnsafeBytes { all in
            rows.withUnsafeBufferPointer { rows in
                order.sort { left, right in
                    let a = rows[Int(left)], b = rows[Int(right)]
                    if a.table != b.table { return rank[Int(a.table)] < rank[Int(b.table)] }
                    if a.keyPrefix != b.keyPrefix { return a.keyPrefix < b.keyPrefix }
                    let keyA = a.valueStart - a.keyStart, keyB = b.valueStart - b.keyStart
                    let common = min(keyA, keyB)
                    let compared = common == 0 ? 0 : memcmp(all.baseAddress! + a.keyStart, all.baseAddress! + b.keyStart, common)
                    if compared != 0 { return compared < 0 }
                    if keyA != keyB { return keyA < keyB }
                    return left < right
                }
            }
        }
        return order
    }

    /// `order` without the rows a later row of the same table and key supersedes: stored in turn,
    /// the last of them decides what the key holds, so the others need no put. `order` is a
    /// storing order, where rows under one key are next to each other, oldest first.
    func lastWrites(in order: [Int32]) -> [Int32] {
        guard order.count > 1 else { return order }
        var kept: [Int32] = []
        kept.reserveCapacity(order.count)
        buffer.bytes.withUnsafeBytes { all in
            for position in order.indices {
                let index = order[position]
                if position + 1 < order.endIndex, Self.sameKey(rows[Int(index)], rows[Int(order[position + 1])], in: all) { continue }
                kept.append(index)
            }
        }
        return kept
    }

    private static func sameKey(_ a: Row, _ b: Row, in all: UnsafeRawBufferPointer) -> Bool {
        let length = a.valueStart - a.keyStart
        guard a.table == b.table, a.keyPrefix == b.keyPrefix, length == b.valueStart - b.keyStart else { return false }
        return length <= 8 || memcmp(all.baseAddress! + a.keyStart, all.baseAddress! + b.keyStart, length) == 0
    }

    /// For each key of these rows of one table, the index of its last row: rows under one key are
    /// superseded in the order they were added, so the last decides what the key holds (a
    /// removal: nothing).
    func lastRowByKey() -> [String: Int32] {
        assert(tables.count <= 1, "keys of one table: a held table's rows")
        var last: [String: Int32] = [:]
        last.reserveCapacity(rows.count)
        buffer.bytes.withUnsafeBytes { all in
            for (index, row) in rows.enumerated() {
                last[String(decoding: all[row.keyStart..<row.valueStart], as: UTF8.self)] = Int32(index)
            }
        }
        return last
    }

    /// Calls `body` with the value bytes of row `index`, nil for a removal.
    func withValue<R>(ofRow index: Int32, _ body: (UnsafeRawBufferPointer?) throws -> R) rethrows -> R {
        let row = rows[Int(index)]
        guard !row.removes else { return try body(nil) }
        return try buffer.bytes.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[row.valueStart..<row.end])) }
    }

    /// The length of the first key from row `first` on that LMDB cannot store (empty, or longer
    /// than `keyBytesMax`); nil when it stores them all.
    func unstorableKeyBytes(from first: Int, keyBytesMax: Int) -> Int? {
        rows[first...].lazy.map { $0.valueStart - $0.keyStart }.first { $0 < 1 || $0 > keyBytesMax }
    }

    /// The table of row `index`.
    func table(of index: Int32) -> String {
        tables[Int(rows[Int(index)].table)]
    }

    /// Whether rows `a` and `b` are of one table.
    func shareTable(_ a: Int32, _ b: Int32) -> Bool {
        rows[Int(a)].table == rows[Int(b)].table
    }

    /// Calls `body` with each row whose index is in `order`, in that order: its key bytes and
    /// value bytes (nil for a removal).
    func forEach(
        inOrder order: ArraySlice<Int32>, _ body: (_ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer?) throws -> Void
    ) throws {
        try buffer.bytes.withUnsafeBytes { all in
            for index in order {
                let row = rows[Int(index)]
                try body(
                    UnsafeRawBufferPointer(rebasing: all[row.keyStart..<row.valueStart]),
                    row.removes ? nil : UnsafeRawBufferPointer(rebasing: all[row.valueStart..<row.end]))
            }
        }
    }
}
