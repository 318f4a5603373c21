import NIOCore

/// Runs a task's jobs on one NIO event loop. An event stream's body runs on the loop of its
/// connection (`EventStreamOnLoopMiddleware`): the hub's wake-up of a waiting stream is then one
/// job on that loop, and the stream's socket write happens right there, instead of a job on the
/// cooperative pool that hands the write to the loop in a second wake-up.
final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        eventLoop.execute { job.runSynchronously(on: executor) }
    }
}

extension EventLoopTaskExecutor {
    /// Runs `operation` on the cooperative pool even when the task prefers an event loop: for
    /// work that may block the thread (a synchronous read of the log), which must never hold a
    /// loop that serves other connections.
    static func offLoop<T: Sendable>(_ operation: () async throws -> T) async rethrows -> T {
        try await withTaskExecutorPreference(globalConcurrentExecutor, operation: operation)
    }
}
