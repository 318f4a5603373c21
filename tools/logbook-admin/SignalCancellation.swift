import Dispatch
import Foundation

/// Turns signals into cancelling a task, so `tail` ends through its normal path: the
/// subscription stops between polls, the output is flushed and the exit status is 0.
final class SignalCancellation {
    private let sources: [any DispatchSourceSignal]

    init<Success, Failure>(of task: Task<Success, Failure>, signals: [Int32]) {
        sources = signals.map { number in
            // The default action would kill the process before the task could wind down.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { task.cancel() }
            source.resume()
            return source
        }
    }

    /// Stops listening; the signals stay ignored, as the process is about to end.
    func stop() {
        for source in sources { source.cancel() }
    }
}
