import Foundation

/// This boot of the machine, as Linux names it (`/proc/sys/kernel/random/boot_id`). A file that
/// names the boot it was written in tells a restart of the process, after which the page cache
/// still holds every write, from a restart of the machine, after which unsynced writes may be lost.
public enum MachineBoot {
    /// Nil where the system does not say (then callers assume the machine restarted).
    public static let id: String? = (try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8))
        .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
}
