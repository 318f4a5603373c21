import Foundation

/// In how many slices the batch read ahead is decoded (`DecodedEvents.decodeAhead`): one per
/// core while decoding a batch costs more CPU than applying it, since the engine then waits for
/// the decoding (a rebuild of one projection); one otherwise, since more slices would take the
/// core the engine's apply needs (an initial build of every read model). Learnt batch by batch.
struct DecodeSlices {
    private(set) var count = 1

    /// After a batch whose decoding took `decodeCPU` over all its slices and whose apply took
    /// `applyCPU` on the engine's thread.
    mutating func learn(decodeCPU: Duration, applyCPU: Duration) {
        count = decodeCPU > applyCPU ? ProcessInfo.processInfo.activeProcessorCount : 1
    }
}
