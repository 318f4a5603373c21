import Testing
@testable import EventLog

/// The walk every subscription makes (`SubscriptionCursor`), on reads made up by each test.
@Suite("Subscription cursor", .timeLimit(.minutes(3)))
struct SubscriptionCursorTests {
    /// Given a read that the task's cancellation cuts short (as a PostgreSQL query is, failing as
    /// if the log closed), when the cursor reads, it ends as a cancelled subscription does:
    /// nil, not the read's error (`logbook-admin tail` exited 1 on SIGTERM so).
    @Test func aReadCutShortByCancellationEndsTheWalk() async throws {
        let ended = await Task {
            var cursor = SubscriptionCursor(from: 1)
            return try await cursor.next(
                read: { _ throws(EventLogError) in
                    withUnsafeCurrentTask { $0?.cancel() }
                    throw .closed
                },
                wait: { _ in true })
        }.result
        #expect(try ended.get() == nil)
    }

    /// Given a read that fails on its own, the failure reaches the subscriber.
    @Test func aReadThatFailsWithoutCancellationIsAnError() async {
        var cursor = SubscriptionCursor(from: 1)
        await #expect(throws: EventLogError.closed) {
            try await cursor.next(read: { _ throws(EventLogError) in throw .closed }, wait: { _ in true })
        }
    }
}
