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
final class HeldWrites {
    private var entries: [(table: String, rows: ReadModelRows)]
    /// Whether no write waits: then a read has nothing to store first.
    private(set) var isEmpty = true

    init(tables: some Sequence<String>) {
        entries = tables.map { ($0, ReadModelRows()) }
    }

    /// Where `table`'s writes wait; nil when its writes do not.
    func index(of table: String) -> Int? {
        entries.firstIndex { $0.table == table }
    }

    /// Holds `value` under `key` in the table at `index`.
    func add<T: ReadModelValue>(_ value: T, at key: String, inTableAt index: Int) {
        entries[index].rows.add(value, at: key, in: entries[index].table)
        isEmpty = false
    }

    /// Holds the stored bytes `value` under `key` in the table at `index`.
    func add(encoded value: [UInt8], at key: String, inTableAt index: Int) {
        entries[index].rows.add(encoded: value, at: key, in: entries[index].table)
        isEmpty = false
    }

    /// Holds the removal of `key` from the table at `index`.
    func addRemoval(of key: String, inTableAt index: Int) {
        entries[index].rows.addRemoval(of: key, in: entries[index].table)
        isEmpty = false
    }

    /// What waits for `table`, no longer held; nil when nothing does.
    func take(_ table: String) -> ReadModelRows? {
        guard !isEmpty, let index = index(of: table), entries[index].rows.count > 0 else { return nil }
        defer {
            entries[index].rows = ReadModelRows()
            isEmpty = entries.allSatisfy { $0.rows.count == 0 }
        }
        return entries[index].rows
    }

    /// The tables something waits for.
    var waiting: [String] { entries.filter { $0.rows.count > 0 }.map(\.table) }
}
