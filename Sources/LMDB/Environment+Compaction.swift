import CLMDB
import Foundation

extension Environment {
    /// Writes a compacted copy of the environment (`mdb_env_copy2` with `MDB_CP_COMPACT`) as
    /// `data.mdb` in the existing, empty directory `directory`, and syncs it: only pages in use
    /// are copied, so bytes left behind in freed pages (LMDB does not zero them) are not.
    public func copyCompacted(toDirectory directory: String) throws(LMDBError) {
        try check(mdb_env_copy2(env, directory, UInt32(MDB_CP_COMPACT)))
        let file = (directory as NSString).appendingPathComponent("data.mdb")
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw LMDBError.system(errno: errno) }
        defer { close(descriptor) }
        // mdb_env_copy2 creates the file as the umask allows (0644, usually).
        guard fchmod(descriptor, Self.fileMode) == 0, fsync(descriptor) == 0 else { throw LMDBError.system(errno: errno) }
    }
}
