/// One batch's writes to a projection's `heldTables`, waiting to be stored at the batch's end in
/// key order (`ReadModelWriter.storeHeld`), or before anything reads their table.
///
/// A reply notifies its report's followers, a post lands in three lists: each of those puts goes
/// to another place of a large table, and put as they come each searched the B-tree from its root
/// through pages the processor no longer had in its cache. Held and sorted, a batch's writes to
/// one table go through one cursor in key order, mostly onto the page of the previous one (the
/// same sorting the rows made ahead get, `PreparedRows.sortForStoring`).
///
/// Tables are found by comparing names along a short array, as `ReadModelTables` does: hashing
/// the name on every put and read cost a projection that holds little more than it saved.
///
/// A read of one key (`latest`) is answered from the held writes when one is under that key, and
/// from the table otherwise, without storing anything first: a report's activity record, read and
/// rewritten by each of its follows and replies, is then stored once per batch, not put and read
/// back ten times.
final class HeldWrites {
    private var entries: [(table: String, rows: ReadModelRows)]
    /// For each table, the row of each key's last held write; made at the table's first read by
    /// key in a batch, then kept up to date, so that a table only written never pays for it.
    private var lastRows: [[String: Int32]?]
    /// Whether no write waits: then a read has nothing to store first.
    private(set) var isEmpty = true

    init(tables: some Sequence<String>) {
        entries = tables.map { ($0, ReadModelRows()) }
        lastRows = Array(repeating: nil, count: entries.count)
    }

    /// Where `table`'s writes wait; nil when its writes do not.
    func index(of table: String) -> Int? {
        entries.firstIndex { $0.table == table }
    }

    /// Holds `value` under `key` in the table at `index`.
    func add<T: ReadModelValue>(_ value: T, at key: String, inTableAt index: Int) {
        entries[index].rows.add(value, at: key, in: entries[index].table)
        added(key, inTableAt: index)
    }

    /// Holds the stored bytes `value` under `key` in the table at `index`.
    func add(encoded value: [UInt8], at key: String, inTableAt index: Int) {
        entries[index].rows.add(encoded: value, at: key, in: entries[index].table)
        added(key, inTableAt: index)
    }

    /// Holds the removal of `key` from the table at `index`.
    func addRemoval(of key: String, inTableAt index: Int) {
        entries[index].rows.addRemoval(of: key, in: entries[index].table)
        added(key, inTableAt: index)
    }

    private func added(_ key: String, inTableAt index: Int) {
        isEmpty = false
        lastRows[index]?[key] = Int32(entries[index].rows.count - 1)
    }

    /// `body`'s answer for the last write held under `key` in the table at `index`, given its
    /// value (nil for a removal); nil when no write under `key` waits, and the table holds what
    /// the key holds.
    func latest<R>(_ key: String, inTableAt index: Int, _ body: (UnsafeRawBufferPointer?) throws -> R) rethrows -> R? {
        guard entries[index].rows.count > 0 else { return nil }
        if lastRows[index] == nil { lastRows[index] = entries[index].rows.lastRowByKey() }
        guard let row = lastRows[index]?[key] else { return nil }
        return try entries[index].rows.withValue(ofRow: row, body)
    }

    /// What waits for `table`, no longer held; nil when nothing does.
    func take(_ table: String) -> ReadModelRows? {
        guard !isEmpty, let index = index(of: table), entries[index].rows.count > 0 else { return nil }
        defer {
            entries[index].rows = ReadModelRows()
            lastRows[index] = nil
            isEmpty = entries.allSatisfy { $0.rows.count == 0 }
        }
        return entries[index].rows
    }

    /// The tables something waits for.
    var waiting: [String] { entries.filter { $0.rows.count > 0 }.map(\.table) }
}
