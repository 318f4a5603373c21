import EventLog
import Synchronization
@testable import Projections

/// Pauses a rebuild at chosen steps (through `ProjectionEngine.rebuildHook`) and records every
/// step, so a test can append or read while the rebuild waits at a known point.
final class RebuildPause: Sendable {
    private struct State {
        var steps: [RebuildStep] = []
        var paused: (step: RebuildStep, resume: CheckedContinuation<Void, Never>)?
        var waiter: CheckedContinuation<RebuildStep, Never>?
    }

    private let state = Mutex(State())
    /// Whether to pause at a step, given the steps before it.
    private let pauseAt: @Sendable (RebuildStep, [RebuildStep]) -> Bool

    /// Installs itself on `engine`; pauses wherever `pauseAt` says.
    init(_ engine: ProjectionEngine<some EventStore>, pauseAt: @escaping @Sendable (RebuildStep, [RebuildStep]) -> Bool) {
        self.pauseAt = pauseAt
        engine.rebuildHook.withLock { $0 = { [self] step in await self.reach(step) } }
    }

    /// Every step reached so far.
    var steps: [RebuildStep] { state.withLock { $0.steps } }

    private func reach(_ step: RebuildStep) async {
        let earlier = state.withLock { state in
            defer { state.steps.append(step) }
            return state.steps
        }
        guard pauseAt(step, earlier) else { return }
        await withCheckedContinuation { (resume: CheckedContinuation<Void, Never>) in
            let waiter = state.withLock { state in
                state.paused = (step, resume)
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: step)
        }
    }

    /// Returns the step the rebuild is paused at, once it is.
    func untilPaused() async -> RebuildStep {
        await withCheckedContinuation { (waiter: CheckedContinuation<RebuildStep, Never>) in
            let paused = state.withLock { state -> RebuildStep? in
                if let paused = state.paused { return paused.step }
                state.waiter = waiter
                return nil
            }
            if let paused { waiter.resume(returning: paused) }
        }
    }

    /// Lets the paused rebuild go on.
    func resume() {
        let paused = state.withLock { state in
            defer { state.paused = nil }
            return state.paused
        }
        paused?.resume.resume()
    }
}
