/// One batch's writes to a projection's `heldTables`, waiting to be stored at the batch's end in
/// key order (`ReadModelWriter.storeHeld`), or before anything reads their table.
///
/// A reply notifies its report's followers, a post lands in three lists: each of those puts goes
/// to another place of a large table, and put as they come each searched the B-tree from its root
/// through pages the processor no longer had in its cache. Held and sorted, a batch's writes to
/// one table go through one cursor in key order, mostly onto the page of the previous one (the
/// same sorting the rows made ahead get, `PreparedRows.sortForStoring`).
final class HeldWrites {
    /// The tables whose writes wait.
    let tables: Set<String>
    private var rows: [String: ReadModelRows] = [:]

    init(tables: Set<String>) {
        self.tables = tables
    }

    /// Whether writes to `table` wait.
    func holds(_ table: String) -> Bool {
        tables.contains(table)
    }

    /// Holds `value` under `key` in `table`.
    func add<T: ReadModelValue>(_ value: T, at key: String, in table: String) {
        rows[table, default: ReadModelRows()].add(value, at: key, in: table)
    }

    /// Holds the stored bytes `value` under `key` in `table`.
    func add(encoded value: [UInt8], at key: String, in table: String) {
        rows[table, default: ReadModelRows()].add(encoded: value, at: key, in: table)
    }

    /// Holds the removal of `key` from `table`.
    func addRemoval(of key: String, in table: String) {
        rows[table, default: ReadModelRows()].addRemoval(of: key, in: table)
    }

    /// What waits for `table`, no longer held; nil when nothing does.
    func take(_ table: String) -> ReadModelRows? {
        rows.removeValue(forKey: table)
    }

    /// The tables something waits for.
    var waiting: [String] { Array(rows.keys) }
}
