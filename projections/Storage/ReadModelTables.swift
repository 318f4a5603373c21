import LMDB

/// One projection's table handles, by the table names it declares (`Projection.tables`).
///
/// A projection has a handful of tables, and names them with the same static strings on every
/// put: comparing names along a short array (equal strings of one origin compare by their bits)
/// beats hashing the name for each put, which was 3% of an albums rebuild's apply.
struct ReadModelTables: ExpressibleByDictionaryLiteral, Sendable {
    private var entries: [(name: String, database: Database)] = []

    init() {}

    init(dictionaryLiteral elements: (String, Database)...) {
        for (name, database) in elements { self[name] = database }
    }

    /// The handle of the table named `name`, or nil when the projection declares none by that name.
    subscript(name: String) -> Database? {
        get { entries.first { $0.name == name }?.database }
        set {
            entries.removeAll { $0.name == name }
            if let newValue { entries.append((name, newValue)) }
        }
    }

    /// Every table's handle.
    var databases: [Database] { entries.map(\.database) }
}
