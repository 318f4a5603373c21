/// One batch's writes to a projection's `heldTables`, waiting to be stored at the batch's end in
/// key order (`ReadModelWriter.store`, as a `RowProjection`'s rows are), or before anything scans
/// their table.
///
/// A reply notifies its report's followers, a post lands in three lists: each of those puts goes
/// to another place of a large table, and put as they come each searched the B-tree from its root
/// through pages the processor no longer had in its cache. Held and sorted, a batch's writes to
/// one table go through one cursor in key order, mostly onto the page of the previous one.
///
/// Tables are found by comparing names along a short array, as `ReadModelTables` does: hashing
/// the name on every put and read cost a projection that holds little more than it saved.
///
/// A read of one key (`latest`: a value, an insert's answer) is answered from the
/// held writes when one is under that key, and from the table otherwise, without storing anything
/// first: a report's activity row, read and rewritten by each of its follows and replies, is
/// then stored once per batch, not put and read back ten times.
///
/// A value changed in place (`ReadModelWriter.update`) is kept decoded (`working`) until its table
/// is stored, and encoded once then: a report's activity row was decoded and encoded again by
/// each of the batch's follows and replies. Only worth it where a batch changes the same keys many
/// times: household's points, each changed about once a batch, built slower held (docs/benchmarks.md,
/// issue 9).
final class HeldWrites {
    private var entries: [(table: String, rows: ReadModelRows)]
    /// For each table, the row of each key's last held write; made at the table's first read by
    /// key in a batch, then kept up to date, so that a table only written never pays for it.
    private var lastRows: [[String: Int32]?]
    /// For each table, the values `update` changed by key, decoded: each key's last write, after
    /// every row held under it, until the table is stored.
    private var working: [[String: any ReadModelValue]]
    /// Whether no write waits: then a read has nothing to store first.
    private(set) var isEmpty = true

    init(tables: some Sequence<String>) {
        entries = tables.map { ($0, ReadModelRows()) }
        lastRows = Array(repeating: nil, count: entries.count)
        working = Array(repeating: [:], count: entries.count)
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

    /// Holds the removal of `key` from the table at `index`.
    func addRemoval(of key: String, inTableAt index: Int) {
        entries[index].rows.addRemoval(of: key, in: entries[index].table)
        added(key, inTableAt: index)
    }

    private func added(_ key: String, inTableAt index: Int) {
        isEmpty = false
        lastRows[index]?[key] = Int32(entries[index].rows.count - 1)
        // The row just held supersedes a value changed in place before it.
        if !working[index].isEmpty { working[index].removeValue(forKey: key) }
    }

    /// Changes the value under `key` in the table at `index` with `change` and keeps it decoded;
    /// `load` finds it when no change this batch has it (the last write held, else the table).
    /// Nothing when there is no value, as `ReadModelWriter.update`.
    func update<T: ReadModelValue>(
        _ type: T.Type, at key: String, inTableAt index: Int, load: () throws -> T?, _ change: (inout T) throws -> Void
    ) throws {
        // Taken out while `change` runs, which may hold writes to other tables (and so reach
        // `working`), and so that the value's storage is not shared while it changes. A throw
        // leaves it out: the batch is then abandoned with its transaction and these writes.
        var value: T
        if let kept = working[index].removeValue(forKey: key) {
            // A table's values are of one type; another one asked for is read as stored bytes.
            guard let same = kept as? T else {
                keep(kept, at: key, inTableAt: index)
                return try update(type, at: key, inTableAt: index, load: load, change)
            }
            value = same
        } else {
            guard let loaded = try load() else { return }
            value = loaded
        }
        try change(&value)
        working[index][key] = value
        isEmpty = false
    }

    /// The value `update` keeps under `key` in the table at `index`; nil when it keeps none (or
    /// one of another type, which it then holds as a row, for `latest` to decode as `type`).
    func kept<T: ReadModelValue>(_ type: T.Type, at key: String, inTableAt index: Int) -> T? {
        guard !working[index].isEmpty, let kept = working[index][key] else { return nil }
        guard let same = kept as? T else {
            working[index].removeValue(forKey: key)
            keep(kept, at: key, inTableAt: index)
            return nil
        }
        return same
    }

    /// Holds a kept value as a row, encoded.
    private func keep(_ value: any ReadModelValue, at key: String, inTableAt index: Int) {
        entries[index].rows.add(value, at: key, in: entries[index].table)
        isEmpty = false
        lastRows[index]?[key] = Int32(entries[index].rows.count - 1)
    }

    /// `body`'s answer for the last write held under `key` in the table at `index`, given its
    /// value (nil for a removal); nil when no write under `key` waits, and the table holds what
    /// the key holds.
    func latest<R>(_ key: String, inTableAt index: Int, _ body: (UnsafeRawBufferPointer?) throws -> R) rethrows -> R? {
        if !working[index].isEmpty, let kept = working[index][key] {
            return try kept.encodedBytes().withUnsafeBytes { try body($0) }
        }
        guard entries[index].rows.count > 0 else { return nil }
        if lastRows[index] == nil { lastRows[index] = entries[index].rows.lastRowByKey() }
        guard let row = lastRows[index]?[key] else { return nil }
        return try entries[index].rows.withValue(ofRow: row, body)
    }

    /// What waits for `table`, no longer held; nil when nothing does.
    func take(_ table: String) -> ReadModelRows? {
        guard !isEmpty, let index = index(of: table), waits(at: index) else { return nil }
        // The kept values last: each is its key's last write.
        for (key, value) in working[index] { entries[index].rows.add(value, at: key, in: table) }
        defer {
            entries[index].rows = ReadModelRows()
            lastRows[index] = nil
            working[index] = [:]
            isEmpty = !entries.indices.contains(where: waits)
        }
        return entries[index].rows
    }

    private func waits(at index: Int) -> Bool {
        entries[index].rows.count > 0 || !working[index].isEmpty
    }

    /// The tables something waits for.
    var waiting: [String] { entries.indices.filter(waits).map { entries[$0].table } }
}
