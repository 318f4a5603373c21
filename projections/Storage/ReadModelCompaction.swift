import Foundation
import LMDB
#if canImport(Glibc)
import Glibc
#endif

extension ProjectionEngine {
    /// Replaces the read-model file with a compacted copy of itself, so that no bytes survive
    /// in pages LMDB freed (it does not zero them): after an erasure's rebuild, the old copies of
    /// the read models, with the erased user's data, are free pages (ADR 0004).
    ///
    /// The copy is consistent (one read transaction), synced, and renamed over `data.mdb`. This
    /// engine keeps the old file mapped, so it must write nothing after this: call it once the
    /// runner and every rebuild have stopped, when the server shuts down.
    public nonisolated func compactReadModelsForShutdown() throws(ReadModelError) {
        let directory = store.environment.path
        let scratch = directory + ".compact"
        let fileManager = FileManager.default
        do {
            try? fileManager.removeItem(atPath: scratch)
            try fileManager.createDirectory(atPath: scratch, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .storage(.system(errno: EIO))
        }
        defer { try? fileManager.removeItem(atPath: scratch) }
        do {
            try store.environment.copyCompacted(toDirectory: scratch)
        } catch {
            throw .storage(error)
        }
        let copy = (scratch as NSString).appendingPathComponent("data.mdb")
        let target = (directory as NSString).appendingPathComponent("data.mdb")
        guard rename(copy, target) == 0 else { throw .storage(.system(errno: errno)) }
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .storage(.system(errno: errno)) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw .storage(.system(errno: errno)) }
    }
}
