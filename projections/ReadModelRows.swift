/// Rows to store, keys and encoded values back to back in one buffer: what a `RowProjection`
/// makes of an event. Made on the thread that reads a batch ahead, so that the engine's thread
/// only hands each row to LMDB.
public struct ReadModelRows: ReadModelRowSink, Sendable {
    /// One row: its table, and where its key and value lie in `buffer`.
    struct Row: Sendable {
        let table: String
        let keyStart: Int
        let valueStart: Int
        let end: Int
    }

    private(set) var buffer = ValueWriter(capacity: 256)
    private(set) var rows: [Row] = []

    /// No rows.
    public init() {}

    /// Adds `value` under `key` in `table`, as `ReadModelWriter.put` would store it.
    public mutating func add<T: ReadModelValue>(_ value: T, at key: String, in table: String) {
        let keyStart = buffer.bytes.count
        buffer.appendRaw(key.utf8)
        let valueStart = buffer.bytes.count
        value.encode(to: &buffer)
        rows.append(Row(table: table, keyStart: keyStart, valueStart: valueStart, end: buffer.bytes.count))
    }

    /// How many rows were added.
    var count: Int { rows.count }

    /// Appends `other`'s rows after these.
    mutating func append(contentsOf other: ReadModelRows) {
        let shift = buffer.bytes.count
        buffer.appendRaw(other.buffer.bytes)
        rows.reserveCapacity(rows.count + other.rows.count)
        for row in other.rows {
            rows.append(Row(table: row.table, keyStart: row.keyStart + shift, valueStart: row.valueStart + shift, end: row.end + shift))
        }
    }

    /// Calls `body` with each row of `range` in turn: its table, key bytes and value bytes.
    func forEach(
        in range: Range<Int>, _ body: (_ table: String, _ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws -> Void
    ) throws {
        try buffer.bytes.withUnsafeBytes { all in
            for row in rows[range] {
                try body(
                    row.table, UnsafeRawBufferPointer(rebasing: all[row.keyStart..<row.valueStart]),
                    UnsafeRawBufferPointer(rebasing: all[row.valueStart..<row.end]))
            }
        }
    }
}
