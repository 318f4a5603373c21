import Foundation

/// How the batch read ahead shares the work with the engine's thread, learnt batch by batch.
///
/// In how many slices it is decoded (`DecodedEvents.decodeAhead`): one per core while decoding
/// costs more CPU than applying, since the engine then waits for the decoding (a rebuild of one
/// projection); one otherwise, since more slices would take the core the engine's apply needs
/// (an initial build of every read model).
///
/// And who makes the `RowProjection`s' rows: the batch read ahead while its decoding and the
/// rows together still cost less than the engine's apply without them (an initial build: the
/// other core has time to spare), the engine's apply otherwise, where they would not lengthen
/// the side the engine waits for (docs/benchmarks.md, issue 9).
///
/// And where an applied batch is freed (`releaseAside`), by the same measure.
struct DecodeSlices {
    private(set) var count = 1
    /// Whether the next batch read ahead makes the rows. At first yes, which measures them.
    private(set) var rowsAhead = true
    /// The rows' CPU time when a batch last made them ahead: the estimate while the engine makes
    /// them inside its apply.
    private var rowsCPU = Duration.zero
    /// Whether the batch just applied is freed aside, on a task of its own (`BatchRelease`),
    /// rather than on the engine's thread: while that shortens the longer of the two sides.
    /// At first no, which measures the freeing.
    private(set) var releaseAside = false

    /// After applying a batch: its apply took `applyCPU` on the engine's thread, which made the
    /// rows itself unless `rowsMadeAhead` (they then took `rowsCPU` ahead); the next batch, read
    /// ahead meanwhile, took `decodeCPU` to decode; freeing a batch last took `releaseCPU`.
    mutating func learn(decodeCPU: Duration, applyCPU: Duration, rowsMadeAhead: Bool, rowsCPU: Duration, releaseCPU: Duration = .zero) {
        if rowsMadeAhead { self.rowsCPU = rowsCPU }
        let apply = rowsMadeAhead ? applyCPU : max(applyCPU - self.rowsCPU, .zero)
        rowsAhead = decodeCPU + self.rowsCPU <= apply
        let readAhead = rowsAhead ? decodeCPU + self.rowsCPU : decodeCPU
        let engine = rowsAhead ? apply : apply + self.rowsCPU
        count = readAhead > engine ? ProcessInfo.processInfo.activeProcessorCount : 1
        // Freeing aside shortens the longer side, max(readAhead + release, engine) against
        // max(readAhead, engine + release), exactly while the read-ahead side is the shorter one
        // and there is something to free.
        releaseAside = readAhead < engine && releaseCPU > .zero
    }
}

extension DecodeSlices {
    /// `learn` after applying `page` in `applyCPU`, with the next batch's decoding read ahead
    /// meanwhile in `nextDecodeCPU`.
    mutating func learn(applied page: DecodedEvents, applyCPU: Duration, nextDecodeCPU: Duration, releaseCPU: Duration) {
        learn(decodeCPU: nextDecodeCPU, applyCPU: applyCPU, rowsMadeAhead: page.rowsMadeAhead, rowsCPU: page.rowsCPU, releaseCPU: releaseCPU)
    }
}
