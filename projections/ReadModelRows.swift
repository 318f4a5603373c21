import Foundation

/// Rows to store, keys and encoded values back to back in one buffer: what a `RowProjection`
/// makes of an event (made on the thread that reads a batch ahead, so that the engine's thread
/// only hands each row to LMDB), or the writes a projection's `heldTables` wait with for the end
/// of a batch (`HeldWrites`), removals among them.
public struct ReadModelRows: ReadModelRowSink, Sendable {
    /// One row: its table, and where its key and value lie in `buffer`; a removal has no value.
    struct Row: Sendable {
        let table: String
        let keyStart: Int
        let valueStart: Int
        let end: Int
        let removes: Bool
    }

    private(set) var buffer = ValueWriter(capacity: 256)
    private(set) var rows: [Row] = []

    /// No rows.
    public init() {}

    /// Adds `value` under `key` in `table`, as `ReadModelWriter.put` would store it.
    public mutating func add<T: ReadModelValue>(_ value: T, at key: String, in table: String) {
        append(key: key, in: table, removes: false) { value.encode(to: &$0) }
    }

    /// Adds the stored bytes `value` (`ReadModelWriter.encoded`) under `key` in `table`.
    mutating func add(encoded value: [UInt8], at key: String, in table: String) {
        append(key: key, in: table, removes: false) { $0.appendRaw(value) }
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
        rows.append(Row(table: table, keyStart: keyStart, valueStart: valueStart, end: buffer.bytes.count, removes: removes))
    }

    /// How many rows were added.
    var count: Int { rows.count }

    /// Appends `other`'s rows after these.
    mutating func append(contentsOf other: ReadModelRows) {
        let shift = buffer.bytes.count
        buffer.appendRaw(other.buffer.bytes)
        rows.reserveCapacity(rows.count + other.rows.count)
        for row in other.rows {
            rows.append(Row(
                table: row.table, keyStart: row.keyStart + shift, valueStart: row.valueStart + shift, end: row.end + shift, removes: row.removes))
        }
    }

    /// The indices of the rows, ordered as they are best stored: by table, then by key as LMDB
    /// orders keys (bytes, then length); rows under one key keep their order, so the last one
    /// put is the last one added, as when putting them in turn.
    func storingOrder() -> [Int32] {
        precondition(rows.count <= Int(Int32.max), "a batch's rows are counted in Int32")
        var order = (0..<Int32(rows.count)).map { $0 }
        buffer.bytes.withUnsafeBytes { all in
            let rows = self.rows
            func key(_ row: Row) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: all[row.keyStart..<row.valueStart]) }
            order.sort { left, right in
                let a = rows[Int(left)], b = rows[Int(right)]
                if a.table != b.table { return a.table < b.table }
                let (keyA, keyB) = (key(a), key(b))
                let common = min(keyA.count, keyB.count)
                let compared = common == 0 ? 0 : memcmp(keyA.baseAddress!, keyB.baseAddress!, common)
                if compared != 0 { return compared < 0 }
                if keyA.count != keyB.count { return keyA.count < keyB.count }
                return left < right
            }
        }
        return order
    }

    /// Whether every key of the rows from `first` on is one LMDB stores (`canStore`).
    func keysFit(from first: Int, _ canStore: (Int) -> Bool) -> Bool {
        rows[first...].allSatisfy { canStore($0.valueStart - $0.keyStart) }
    }

    /// The table of row `index`.
    func table(of index: Int32) -> String {
        rows[Int(index)].table
    }

    /// Calls `body` with each row whose index is in `order` and at least `first`, in that order:
    /// its index, key bytes and value bytes (nil for a removal).
    func forEach(
        inOrder order: ArraySlice<Int32>, from first: Int,
        _ body: (_ index: Int, _ key: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer?) throws -> Void
    ) throws {
        try buffer.bytes.withUnsafeBytes { all in
            for index in order where index >= first {
                let row = rows[Int(index)]
                try body(
                    Int(index), UnsafeRawBufferPointer(rebasing: all[row.keyStart..<row.valueStart]),
                    row.removes ? nil : UnsafeRawBufferPointer(rebasing: all[row.valueStart..<row.end]))
            }
        }
    }
}
