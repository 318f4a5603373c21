#if canImport(Glibc)
import Glibc
#endif

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
