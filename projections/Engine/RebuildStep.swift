/// A point in a rebuild where `ProjectionEngine.rebuildHook` (a test seam) is called and
/// awaited, so a test can append or read while the rebuild is paused there.
enum RebuildStep: Sendable, Equatable {
    /// A batch of the new copy committed; it includes the log up to `checkpoint`.
    case built(checkpoint: UInt64)
    /// The new copy reached the end of the log (at `checkpoint`); the swap comes next.
    case reachedEnd(checkpoint: UInt64)
    /// About to swap: the served copy is at `served`, the new copy at `rebuilt`, and `missing`
    /// events were read to bring the new copy up to `target` in the swap's transaction.
    case swapping(served: UInt64, rebuilt: UInt64, target: UInt64, missing: Int)
}
