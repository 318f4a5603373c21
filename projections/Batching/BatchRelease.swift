import Synchronization

/// Frees applied batches, on the engine's thread or aside on a task of its own, and keeps the
/// CPU time the last one took for `DecodeSlices`.
///
/// A batch's decoded events are freed when its last reference goes: on the engine's thread, a
/// sixth of it in a workplace build (answers and texts by the tens of thousands). Aside, the
/// read-ahead side's core frees them while the engine applies the next batch; that is only a
/// gain while the read-ahead side has the time (`DecodeSlices.releaseAside`).
final class BatchRelease: Sendable {
    private let lastCPU = Mutex(Duration.zero)
    /// The last batch freed aside; each waits for the one before, so this one ending means all did.
    private let lastAside = Mutex<Task<Void, Never>?>(nil)

    /// The CPU time freeing the last batch took.
    var last: Duration { lastCPU.withLock { $0 } }

    /// Frees `page`, which nothing else holds (the caller consumes its own reference): here, or
    /// `aside` on a task of its own.
    func release(_ page: consuming DecodedEvents, aside: Bool) {
        let box = Box(page)
        if aside {
            lastAside.withLock { last in
                let before = last
                last = Task.detached {
                    await before?.value
                    self.free(box)
                }
            }
        } else {
            free(box)
        }
    }

    /// Returns once every batch released so far is freed.
    func settled() async {
        await lastAside.withLock { $0 }?.value
    }

    private func free(_ box: Box) {
        let cpu = ThreadCPUTime.measure { box.empty() }.1
        lastCPU.withLock { $0 = cpu }
    }

    /// Holds a batch until `empty` drops it, on whichever thread calls it.
    private final class Box: @unchecked Sendable {
        // @unchecked: `page` is set once and dropped once, by the one task that frees it.
        private var page: DecodedEvents?
        init(_ page: consuming DecodedEvents) { self.page = page }
        func empty() { page = nil }
    }
}
