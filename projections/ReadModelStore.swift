import Foundation
import LMDB
import Synchronization

/// The read-model LMDB environment (`<dataDirectory>/readmodels`): one `meta` table of
/// `ProjectionMeta` by projection name, and each projection's tables in two slots.
///
/// It is a separate environment from the log so that projection writes never queue behind, or
/// hold up, appends. Commits sync data but not the meta page: read models can be rebuilt from
/// the log, and their checkpoint commits with their changes, so losing the last commit to a power
/// failure only means applying those events again.
final class ReadModelStore: Sendable {
    /// The map a store starts with; it doubles whenever a write finds it full. Only pages in use
    /// take disk or memory, so a generous start costs nothing and saves early remaps.
    static let initialMapSizeBytes = 1 << 30

    let environment: Environment
    let meta: Database
    private let handles = Mutex<[String: Database]>([:])

    /// Opens (or, unless `readOnly`, creates) the read models of `dataDirectory`.
    init(dataDirectory: String, unsafeNoSync: Bool, initialMapSizeBytes: Int, readOnly: Bool = false) throws(ReadModelError) {
        do {
            environment = try Environment(
                path: (dataDirectory as NSString).appendingPathComponent("readmodels"),
                options: EnvironmentOptions(
                    mapSizeBytes: initialMapSizeBytes, databasesMax: 256, readOnly: readOnly, syncMetaPage: false,
                    unsafeNoSync: unsafeNoSync)
            )
            meta = try environment.openDatabase("meta")
        } catch {
            throw .storage(error)
        }
    }

    /// Handles of `projection`'s tables in `generation`, created if missing. Must not be called
    /// inside a write transaction: creating a database takes LMDB's writer lock itself.
    func tables(of projection: any Projection, generation: Int) throws(ReadModelError) -> [String: Database] {
        var tables: [String: Database] = [:]
        for table in projection.tables {
            let name = ProjectionMeta.databaseName(projection.name, generation: generation, table: table)
            if let known = handles.withLock({ $0[name] }) {
                tables[table] = known
                continue
            }
            do {
                let opened = try environment.openDatabase(name)
                handles.withLock { $0[name] = opened }
                tables[table] = opened
            } catch {
                throw .storage(error)
            }
        }
        return tables
    }

    /// Handles of `projection`'s tables in `generation` if every one is open already; nil
    /// otherwise. Safe inside any transaction, as it never opens a database.
    func openedTables(of projection: any Projection, generation: Int) -> [String: Database]? {
        handles.withLock { handles in
            var tables: [String: Database] = [:]
            for table in projection.tables {
                guard let known = handles[ProjectionMeta.databaseName(projection.name, generation: generation, table: table)] else { return nil }
                tables[table] = known
            }
            return tables
        }
    }

    func meta(of name: String, in transaction: Transaction) throws -> ProjectionMeta? {
        let bytes = try transaction.get(meta, Array(name.utf8))
        if let bytes, bytes.first == UInt8(ascii: "{") {
            // Written as JSON by an earlier version: read once, rewritten in binary by the next batch.
            do {
                return try JSONDecoder().decode(ProjectionMeta.self, from: Data(bytes))
            } catch {
                throw ReadModelError.undecodable(table: "meta", key: name, reason: "\(error)")
            }
        }
        return try ReadModelCodec.decode(ProjectionMeta.self, bytes, table: "meta", key: name)
    }

    func store(_ value: ProjectionMeta, of name: String, in transaction: WriteTransaction) throws {
        try transaction.put(meta, Array(name.utf8), value.encodedBytes())
    }

    /// Runs `body` in a write transaction, mapping failures to `ReadModelError`.
    func write<T>(_ body: (WriteTransaction) throws -> T) throws(ReadModelError) -> T {
        do {
            return try environment.write(body)
        } catch {
            throw ReadModelError(error)
        }
    }

    /// Runs `body` in a read transaction, mapping failures to `ReadModelError`.
    func read<T>(_ body: (Transaction) throws -> T) throws(ReadModelError) -> T {
        do {
            return try environment.read(body)
        } catch {
            throw ReadModelError(error)
        }
    }
}
