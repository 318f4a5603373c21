import EventLog
import LMDB
@testable import Projections

/// Every key and value of a projection's served copy, as stored: what "a rebuild equals the
/// live model" compares, byte for byte, with no codec or query in between to hide a difference.
struct RawReadModel: Equatable, CustomStringConvertible {
    /// One stored entry.
    struct Entry: Equatable {
        var key: [UInt8]
        var value: [UInt8]
    }

    /// Entries by table, each in key order.
    var tables: [String: [Entry]]

    /// Reads every table of `projection` in one snapshot of `engine`.
    init(_ projection: any Projection, in engine: ProjectionEngine<some EventStore>) throws {
        tables = try engine.read(projection) { reader in
            var tables: [String: [Entry]] = [:]
            for table in projection.tables {
                guard let database = reader.tables[table] else { throw ReadModelError.unknownTable(projection: projection.name, table: table) }
                tables[table] = try reader.transaction.withCursor(database) { cursor in
                    var entries: [Entry] = []
                    var entry = try cursor.first()
                    while let current = entry {
                        entries.append(Entry(key: Array(current.key), value: Array(current.value)))
                        entry = try cursor.next()
                    }
                    return entries
                }
            }
            return tables
        }
    }

    /// Entries over all tables.
    var count: Int { tables.values.reduce(0) { $0 + $1.count } }

    /// Whether any stored value holds `text`'s UTF-8 bytes anywhere: what a test of personal data
    /// kept out of the read models looks for.
    func holds(_ text: String) -> Bool {
        let needle = Array(text.utf8)
        return tables.values.joined().contains { entry in
            entry.value.indices.contains { entry.value[$0...].starts(with: needle) }
        }
    }

    /// Tables with no entry: a comparison of empty tables proves nothing about them.
    var emptyTables: [String] { tables.filter(\.value.isEmpty).keys.sorted() }

    /// Table sizes, for a readable failure.
    var description: String {
        tables.keys.sorted().map { "\($0): \(tables[$0]!.count)" }.joined(separator: ", ")
    }

    /// The first entry where `self` and `other` differ, for a readable failure.
    func firstDifference(from other: RawReadModel) -> String? {
        for table in Set(tables.keys).union(other.tables.keys).sorted() {
            let mine = tables[table] ?? [], theirs = other.tables[table] ?? []
            for index in 0..<max(mine.count, theirs.count) {
                let a = index < mine.count ? mine[index] : nil, b = index < theirs.count ? theirs[index] : nil
                if a != b {
                    let key = (a ?? b).map { String(decoding: $0.key, as: UTF8.self) } ?? "?"
                    return "\(table)[\(index)] key \(key): \(a.map { "\($0.value)" } ?? "missing") vs \(b.map { "\($0.value)" } ?? "missing")"
                }
            }
        }
        return nil
    }
}
