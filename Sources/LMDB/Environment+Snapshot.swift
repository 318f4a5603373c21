import CLMDB
import Foundation

extension Environment {
    /// How often a copy starts again after another process grew the map under it.
    static let snapshotAttemptsMax = 5

    /// Writes a consistent copy of the environment as `data.mdb` in `directory` (which must exist
    /// and hold no `data.mdb`), fsyncs the file and the directory, and returns its size in bytes.
    ///
    /// The copy is of one read transaction (`mdb_env_copy2` with `MDB_CP_COMPACT`): it holds
    /// exactly what was committed when that transaction began, and the writer, in this process or
    /// another, goes on meanwhile (it only keeps the pages the copy still reads). Compacting
    /// copies only the pages in use, so bytes of freed pages (LMDB does not zero them) stay
    /// behind. When another process grew the map since this one last looked, LMDB refuses the
    /// read transaction (`MDB_MAP_RESIZED`); the map size is adopted and the copy starts over.
    @discardableResult
    public func copySnapshot(toDirectory directory: String) throws(LMDBError) -> Int {
        let file = (directory as NSString).appendingPathComponent("data.mdb")
        // Never over another copy (older LMDBs truncate it; newer refuse): it is not ours to remove.
        guard access(file, F_OK) != 0 else { throw LMDBError.system(errno: EEXIST) }
        var attempt = 1
        while true {
            let status = mdb_env_copy2(env, directory, UInt32(MDB_CP_COMPACT))
            if status == MDB_SUCCESS { break }
            // mdb_env_copy2 creates the file before it reads anything and leaves it behind on failure.
            // (It was not there before: checked above.)
            unlink(file)
            guard status == MDB_MAP_RESIZED, attempt < Self.snapshotAttemptsMax else { throw LMDBError(code: status) }
            attempt += 1
            // A read adopts the size the other process recorded (see `read`).
            do {
                try read { _ in }
            } catch let error as LMDBError {
                throw error
            } catch {
                throw LMDBError.invalid
            }
        }
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw LMDBError.system(errno: errno) }
        defer { close(descriptor) }
        var info = stat()
        // mdb_env_copy2 creates the file as the umask allows (0644, usually).
        guard fchmod(descriptor, Self.fileMode) == 0, fsync(descriptor) == 0, fstat(descriptor, &info) == 0 else {
            throw LMDBError.system(errno: errno)
        }
        // The file's name, too, must survive a power failure.
        let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directoryDescriptor >= 0 else { throw LMDBError.system(errno: errno) }
        defer { close(directoryDescriptor) }
        guard fsync(directoryDescriptor) == 0 else { throw LMDBError.system(errno: errno) }
        return Int(info.st_size)
    }
}
