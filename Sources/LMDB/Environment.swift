import CLMDB
import Foundation
import Synchronization

/// An LMDB environment: one memory-mapped file holding named databases.
///
/// Transactions are scoped to closures so that a write transaction always begins and commits on
/// the same thread (LMDB's writer lock is thread-bound: committing elsewhere "succeeds" but never
/// releases it). Closures are synchronous, so nothing can `await` inside a transaction.
/// Read transactions use `MDB_NOTLS`, which lets them run on any thread of an async pool.
public final class Environment: @unchecked Sendable {
    let env: OpaquePointer
    /// The directory holding `data.mdb` and `lock.mdb`.
    public let path: String
    /// The options the environment was opened with.
    public let options: EnvironmentOptions
    /// The longest key this environment stores (`mdb_env_get_maxkeysize`; 511 bytes in a default
    /// build of LMDB). Keys are 1 to this many bytes: the wrapper refuses others with `.keySize`.
    public let keyBytesMax: Int
    private let mapLock = ReadersWriterLock()
    /// The mode of the files an environment and its copies are created with: its owner's only.
    /// The log and the read models hold the service's data (read models even personal data in
    /// the clear); whoever reads an environment runs as its owner.
    static let fileMode: mode_t = 0o600
    /// The mode of the directory an environment creates for itself.
    static let directoryMode: mode_t = 0o700
    private let databaseOpenLock = Mutex<Void>(())

    /// Opens (and, unless read-only, creates) the environment in directory `path`.
    public init(path: String, options: EnvironmentOptions = EnvironmentOptions()) throws(LMDBError) {
        if !options.readOnly {
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: Int(Self.directoryMode)])
            } catch {
                throw LMDBError.system(errno: EACCES)
            }
        }
        var created: OpaquePointer?
        try check(mdb_env_create(&created))
        guard let env = created else { throw LMDBError.invalid }
        do {
            try check(mdb_env_set_maxreaders(env, options.readersMax))
            try check(mdb_env_set_maxdbs(env, options.databasesMax))
            try check(mdb_env_set_mapsize(env, options.mapSizeBytes))
            var flags = UInt32(MDB_NOTLS)
            if options.readOnly { flags |= UInt32(MDB_RDONLY) }
            if options.unsafeNoSync { flags |= UInt32(MDB_NOSYNC) }
            if !options.syncMetaPage { flags |= UInt32(MDB_NOMETASYNC) }
            try check(mdb_env_open(env, path, flags, Self.fileMode))
            // A process killed while reading leaves its reader slot behind; clear such slots so
            // they neither pin old pages forever nor exhaust the reader table.
            var cleared: Int32 = 0
            try check(mdb_reader_check(env, &cleared))
        } catch {
            mdb_env_close(env)
            throw error
        }
        self.env = env
        self.path = path
        self.options = options
        keyBytesMax = Int(mdb_env_get_maxkeysize(env))
        assert(keyBytesMax > 0, "LMDB stores keys of at least one byte")
    }

    deinit {
        mdb_env_close(env)
    }

    /// Opens a named database, creating it when `create` is set and the environment is writable.
    public func openDatabase(_ name: String, create: Bool = true) throws(LMDBError) -> Database {
        // DBI handles must not be opened by two threads at once (LMDB's rule).
        try databaseOpenLock.withLock { _ throws(LMDBError) in
            try mapLock.withShared { () throws(LMDBError) -> Database in
                var txn: OpaquePointer?
                let readOnly = options.readOnly || !create
                try check(mdb_txn_begin(env, nil, readOnly ? UInt32(MDB_RDONLY) : 0, &txn))
                var handle: MDB_dbi = 0
                let flags = (create && !options.readOnly) ? UInt32(MDB_CREATE) : 0
                let status = mdb_dbi_open(txn, name, flags, &handle)
                guard status == MDB_SUCCESS else {
                    mdb_txn_abort(txn)
                    throw LMDBError(code: status)
                }
                // Committing keeps the handle open for the environment's life, also when read-only.
                try check(mdb_txn_commit(txn))
                return Database(handle: handle, name: name)
            }
        }
    }

    /// Runs `body` in a read-only snapshot of the environment.
    ///
    /// Buffers handed out inside `body` point into the map and are valid only until it returns.
    /// Do not open another transaction inside `body`.
    public func read<T>(_ body: (Transaction) throws -> T) throws -> T {
        while true {
            let outcome: T? = try mapLock.withShared { () throws -> T? in
                var txn: OpaquePointer?
                let status = mdb_txn_begin(env, nil, UInt32(MDB_RDONLY), &txn)
                if status == MDB_MAP_RESIZED { return nil }
                try check(status)
                guard let txn else { throw LMDBError.badTransaction }
                defer { mdb_txn_abort(txn) }
                return try body(Transaction(pointer: txn, keyBytesMax: keyBytesMax))
            }
            if let outcome { return outcome }
            try adoptMapSizeOfOtherProcess()
        }
    }

    /// Runs `body` in a write transaction and commits it durably (fsync) before returning.
    ///
    /// If `body` throws, the transaction is aborted and nothing is written. When the map is full
    /// it is grown (up to `mapSizeMaxBytes`) and `body` runs again from scratch, so `body` must not
    /// have effects outside the transaction that would be wrong to repeat.
    public func write<T>(_ body: (WriteTransaction) throws -> T) throws -> T {
        precondition(!options.readOnly, "write transaction on a read-only environment")
        while true {
            do {
                return try mapLock.withShared { () throws -> T in try writeOnce(body) }
            } catch LMDBError.mapFull {
                guard try growMap() else { throw LMDBError.mapFull }
            } catch LMDBError.mapResized {
                try adoptMapSizeOfOtherProcess()
            }
        }
    }

    private func writeOnce<T>(_ body: (WriteTransaction) throws -> T) throws -> T {
        var txn: OpaquePointer?
        try check(mdb_txn_begin(env, nil, 0, &txn))
        guard let txn else { throw LMDBError.badTransaction }
        let beganOn = pthread_self()
        let result: T
        do {
            result = try body(WriteTransaction(pointer: txn, keyBytesMax: keyBytesMax))
        } catch {
            mdb_txn_abort(txn)
            throw error
        }
        // The closure is synchronous, so this holds by construction; the assertion documents why
        // the API is shaped this way.
        assert(pthread_equal(beganOn, pthread_self()) != 0, "write transaction changed thread")
        // mdb_txn_commit frees the transaction whether or not it succeeds.
        try check(mdb_txn_commit(txn))
        return result
    }

    /// Doubles the map (capped at the maximum). Returns false when it is already at the maximum.
    private func growMap() throws -> Bool {
        try mapLock.withExclusive { () throws -> Bool in
            let current = info().mapSizeBytes
            guard current < options.mapSizeMaxBytes else { return false }
            let grown = min(current * 2, options.mapSizeMaxBytes)
            try check(mdb_env_set_mapsize(env, grown))
            return true
        }
    }

    /// Another process grew the map; passing 0 makes LMDB adopt the size recorded in the file.
    private func adoptMapSizeOfOtherProcess() throws {
        try mapLock.withExclusive { () throws in
            try check(mdb_env_set_mapsize(env, 0))
        }
    }

    /// Sizes and counters of the environment as a whole.
    public func info() -> EnvironmentInfo {
        var raw = MDB_envinfo()
        var stat = MDB_stat()
        // Both calls only read fields of an open environment and cannot fail once it is open.
        _ = mdb_env_info(env, &raw)
        _ = mdb_env_stat(env, &stat)
        return EnvironmentInfo(
            mapSizeBytes: raw.me_mapsize,
            lastPageNumber: raw.me_last_pgno,
            lastTransactionID: raw.me_last_txnid,
            readersMax: raw.me_maxreaders,
            readersUsed: raw.me_numreaders,
            pageSizeBytes: Int(stat.ms_psize)
        )
    }

    /// Begins a read-only transaction under the map lock for a caller that owns and ends it.
    func beginReadOnly(_ txn: inout OpaquePointer?) -> Int32 {
        mapLock.withShared { mdb_txn_begin(env, nil, UInt32(MDB_RDONLY), &txn) }
    }

    /// From now on commits do not sync (`MDB_NOSYNC`): for an owner that makes each commit durable
    /// another way (the event log's write-ahead file) and calls `sync()` at its checkpoints, or
    /// whose data can be rebuilt and is discarded after a power failure (the read models).
    /// Unlike `unsafeNoSync`, safe when that owner restores its last checkpoint or rebuilds.
    public func syncOnlyWhenAsked() throws(LMDBError) {
        try check(mdb_env_set_flags(env, UInt32(MDB_NOSYNC), 1))
    }

    /// Whether each commit syncs now: neither `unsafeNoSync` nor `syncOnlyWhenAsked` is in force.
    public var syncsEachCommit: Bool {
        var flags: UInt32 = 0
        _ = mdb_env_get_flags(env, &flags)  // reads a field of an open environment; cannot fail
        return flags & UInt32(MDB_NOSYNC) == 0
    }

    /// From now on each commit syncs again (undoes `syncOnlyWhenAsked`).
    public func syncEveryCommit() throws(LMDBError) {
        try check(mdb_env_set_flags(env, UInt32(MDB_NOSYNC), 0))
    }

    /// Flushes the data file to disk. Commits already do this unless `unsafeNoSync` is set.
    public func sync() throws(LMDBError) {
        try check(mdb_env_sync(env, 1))
    }

    /// The data file's descriptor, for calls LMDB does not make itself (starting its writeback).
    /// Valid while the environment is open; never to be closed or written through.
    public func dataFileDescriptor() throws(LMDBError) -> Int32 {
        var descriptor: Int32 = -1
        try check(mdb_env_get_fd(env, &descriptor))
        return descriptor
    }
}
