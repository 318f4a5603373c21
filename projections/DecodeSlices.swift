import Foundation
#if canImport(Glibc)
import Glibc
#endif

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

/// CPU time of the calling thread: what a synchronous piece of work cost, whatever else the
/// machine was running meanwhile.
enum ThreadCPUTime {
    static func now() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)  // cannot fail for this clock
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }

    /// `body`'s result and the CPU time it took on this thread; `body` must not suspend.
    static func measure<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> (T, Duration) {
        let start = now()
        let result = try body()
        return (result, now() - start)
    }
}
