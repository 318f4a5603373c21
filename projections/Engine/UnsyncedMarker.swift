import EventSourcing
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `readmodels/unsynced`: present while the read models may hold commits not yet on the disk,
/// holding the boot of the machine they were written in (`ReadModelSync.untilFinished`).
struct UnsyncedMarker {
    static let fileName = "unsynced"
    let path: String

    init(directory: String) {
        path = (directory as NSString).appendingPathComponent(Self.fileName)
    }

    /// The boot named by the marker; nil when there is none. A marker that cannot be read names
    /// no boot (""), so it matches none.
    func boot() -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    /// Whether the read models may have lost unsynced commits: a marker of another boot (or of an
    /// unknown one) says the machine restarted since they were written.
    func lostWrites(currentBoot: String?) -> Bool {
        guard let written = boot() else { return false }
        return currentBoot == nil || written != currentBoot
    }

    /// Durably names `bootID`, before any unsynced commit.
    func write(bootID: String) throws(ReadModelError) {
        do {
            try DurableFile.write(Data(bootID.utf8), to: path)
        } catch {
            throw .storage(.system(errno: EIO))
        }
    }

    /// Durably removes the marker, once every commit is on the disk.
    func remove() throws(ReadModelError) {
        do {
            try DurableFile.remove(path)
        } catch {
            throw .storage(.system(errno: EIO))
        }
    }
}
