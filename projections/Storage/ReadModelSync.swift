import EventLog
import Foundation

/// When read-model commits reach the disk.
///
/// Read models are rebuilt from the log, so they need not survive a power failure, only never be
/// served torn after one. LMDB without sync survives a killed process (the page cache keeps
/// every write) but not a machine that stops: its file may then hold half a commit.
public enum ReadModelSync: Sendable, Equatable {
    /// Each commit syncs the data (not the meta page: a power failure may undo the last commit,
    /// whose events are then applied again).
    case everyCommit
    /// Commits do not sync; the read models are synced when the engine finishes
    /// (`finishUnsyncedWrites`). Before the first such commit a marker naming this boot of the
    /// machine is made durable (`readmodels/unsynced`); opened again in another boot with the
    /// marker still there, the read models are deleted and built again from the log. Saves the
    /// command path a flush per command (read-your-writes waits for the read models).
    case untilFinished
    /// Never: for tests and benchmarks, as `EnvironmentOptions.unsafeNoSync`.
    case unsafeNever
}

extension ReadModelSync {
    /// Whether the read models of `dataDirectory` were being written without sync when the
    /// machine restarted (their marker names another boot): they may be torn until the next
    /// server deletes and rebuilds them, so nothing may read or copy them meanwhile.
    public static func mayBeTorn(dataDirectory: String, bootID: String? = MachineBoot.id) -> Bool {
        UnsyncedMarker(directory: (dataDirectory as NSString).appendingPathComponent("readmodels")).lostWrites(currentBoot: bootID)
    }
}
