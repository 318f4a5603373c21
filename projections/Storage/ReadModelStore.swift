import EventSourcing
import Foundation
import LMDB
import Synchronization

/// The read-model LMDB environment (`<dataDirectory>/readmodels`): one `meta` table of
/// `ProjectionMeta` by projection name, and each projection's tables in two slots.
///
/// It is a separate environment from the log so that projection writes never queue behind, or
/// hold up, appends. Commits sync data but not the meta page, or nothing until the engine
/// finishes (`ReadModelSync`): read models can be rebuilt from the log, and their checkpoint
/// commits with their changes, so losing the last commits only means applying those events
/// again, and read models a machine restart may have torn are deleted and built again.
final class ReadModelStore: Sendable {
    /// The map a store starts with; it doubles whenever a write finds it full. Only pages in use
    /// take disk or memory, so a generous start costs nothing and saves early remaps.
    static let initialMapSizeBytes = 1 << 30

    let environment: Environment
    let meta: Database
    private let handles = Mutex<[String: Database]>([:])
    private let marker: UnsyncedMarker
    /// Whether commits are not synced now, so `finishUnsyncedWrites` has work to do.
    private let unsynced: Mutex<Bool>
    /// Whether opening deleted read models a machine restart may have torn.
    let discardedUnsynced: Bool
    /// How many times `flushUnsynced` wrote the read models to disk.
    let flushes = Atomic<Int>(0)

    /// Opens (or, unless `readOnly`, creates) the read models of `dataDirectory`. `bootID` is this
    /// boot of the machine (`MachineBoot.id`; tests pass another to model a restart).
    init(
        dataDirectory: String, sync: ReadModelSync, bootID: String?, initialMapSizeBytes: Int, readOnly: Bool = false
    ) throws(ReadModelError) {
        let path = (dataDirectory as NSString).appendingPathComponent("readmodels")
        marker = UnsyncedMarker(directory: path)
        discardedUnsynced = marker.lostWrites(currentBoot: bootID)
        if discardedUnsynced {
            // A reader must not read them and cannot delete them.
            if readOnly { throw .unsyncedBeforeRestart }
            try Self.delete(path, then: marker)
        }
        do {
            environment = try Environment(
                path: path,
                options: EnvironmentOptions(
                    mapSizeBytes: initialMapSizeBytes, databasesMax: 256, readOnly: readOnly, syncMetaPage: false,
                    unsafeNoSync: sync == .unsafeNever)
            )
            meta = try environment.openDatabase("meta")
        } catch {
            throw .storage(error)
        }
        // Without a boot id a restart cannot be told from a crash of the process: sync each commit.
        // Another writer (`logbook-admin replay`) syncing each commit leaves a marker alone: the
        // server that wrote it may still be running unsynced.
        if sync == .untilFinished, !readOnly, let bootID {
            if marker.boot() != bootID { try marker.write(bootID: bootID) }
            do {
                try environment.syncOnlyWhenAsked()
            } catch {
                throw .storage(error)
            }
            unsynced = Mutex(true)
        } else {
            unsynced = Mutex(false)
        }
    }

    /// Deletes the read models at `path`, then the marker that condemned them, each durably (in
    /// that order, so an interruption leaves the marker to condemn what is left).
    private static func delete(_ path: String, then marker: UnsyncedMarker) throws(ReadModelError) {
        for file in ["data.mdb", "lock.mdb"] {
            let name = (path as NSString).appendingPathComponent(file)
            guard unlink(name) == 0 || errno == ENOENT else { throw .storage(.system(errno: errno)) }
        }
        do {
            try DurableFile.syncDirectory(of: marker.path)
        } catch {
            throw .storage(.system(errno: EIO))
        }
        try marker.remove()
    }

    /// Writes what unsynced commits left in the page cache to the disk now; nothing when commits
    /// sync themselves. The runner calls it when a long catch-up ends (a start on a log far ahead,
    /// a rebuild from scratch): otherwise the kernel writes those pages back about thirty seconds
    /// later, in the middle of the traffic, and the log's own fsyncs queue behind that burst. After
    /// a catch-up of 1,000,000 events that was a stall of about 150 ms of every command
    /// (docs/benchmarks.md, issue 9). Later commits stay unsynced, as before.
    func flushUnsynced() throws(ReadModelError) {
        guard unsynced.withLock({ $0 }) else { return }
        do {
            try environment.sync()
        } catch {
            throw .storage(error)
        }
        flushes.add(1, ordering: .relaxed)
    }

    /// Syncs every commit so far and each one from now on, then removes the unsynced marker: the
    /// engine's last step before the process ends. Nothing to do unless commits were unsynced.
    func finishUnsyncedWrites() throws(ReadModelError) {
        guard unsynced.withLock({ $0 }) else { return }
        // In a write transaction, so no commit runs between turning sync on and the sync: each
        // commit either is flushed here or flushes itself.
        try write { _ in
            try environment.syncEveryCommit()
            try environment.sync()
        }
        unsynced.withLock { $0 = false }
        try marker.remove()
    }

    /// Handles of `projection`'s tables in `generation`, created if missing. Must not be called
    /// inside a write transaction: creating a database takes LMDB's writer lock itself.
    func tables(of projection: any Projection, generation: Int) throws(ReadModelError) -> ReadModelTables {
        var tables = ReadModelTables()
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
    func openedTables(of projection: any Projection, generation: Int) -> ReadModelTables? {
        handles.withLock { handles in
            var tables = ReadModelTables()
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
