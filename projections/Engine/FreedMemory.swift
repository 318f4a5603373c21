import CHeapTrim

/// Gives the allocator's free pages back to the system.
///
/// A catch-up decodes and frees batches of 40,000 events on several threads, so glibc keeps the
/// freed memory in several arenas, where it stays: after a start on a log of 1,000,000 household
/// events the server's heap (`RssAnon`) was 237 MB, and 133 MB once trimmed (docs/benchmarks.md,
/// issue 9). Later batches are small, so it is done once at the end of a long
/// catch-up or rebuild, when the memory is known to be free.
enum FreedMemory {
    /// Whether any memory was given back (never, where the C library cannot).
    @discardableResult
    static func returnToSystem() -> Bool {
        logbook_trim_heap() == 1
    }
}
