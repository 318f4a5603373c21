import Foundation
import MallocInterposerSwift

/// What one measured stretch of a scenario did, as the scenario itself counts it: the heap
/// allocations made in it (every thread's, through the preloaded interposer), how many units of
/// work it did (events, commands, requests) and how many group commits the log made meanwhile.
/// The parent adds what the kernel saw of it (`SyscallTrace`).
struct WindowCounts: Codable {
    var units: Int
    var allocations: Int
    var commits: Int
}

/// Brackets a stretch of work for both counters: the allocation counts, and the syscall trace,
/// which learns where the stretch begins and ends from two `access` calls on paths nothing else
/// asks for (strace prints them with the syscalls the parent counts).
enum MeasuredWindow {
    static let markerPrefix = "/.logbook-budgets-window/"

    /// Whether the interposer is loaded ahead of libc: linked but not preloaded, it counts nothing.
    static func interposerIsLoaded() -> Bool {
        MallocInterposerSwift.initialize()
        MallocInterposerSwift.hook()
        // Through libc, which the optimiser cannot see into (a malloc it sees freed it removes).
        let probe = strdup(CommandLine.arguments[0])
        MallocInterposerSwift.unhook()
        free(probe)
        return MallocInterposerSwift.getStatistics().mallocCount > 0
    }

    /// Runs `body` as the window `name`; `units` and `commits` are read after it.
    static func measure(
        _ name: String, units: () -> Int, commits: () -> Int, _ body: () async throws -> Void
    ) async rethrows -> WindowCounts {
        let commitsBefore = commits()
        access(markerPrefix + "begin/" + name, F_OK)
        MallocInterposerSwift.initialize()
        MallocInterposerSwift.hook()
        try await body()
        MallocInterposerSwift.unhook()
        access(markerPrefix + "end/" + name, F_OK)
        let statistics = MallocInterposerSwift.getStatistics()
        return WindowCounts(units: units(), allocations: statistics.mallocCount, commits: commits() - commitsBefore)
    }
}
