import Foundation
import Testing
@testable import EventLog

@Suite("Subscriptions", .timeLimit(.minutes(3)))
struct SubscriptionTests {
    /// Collects `count` events from `subscription` (or fewer if it ends).
    private func collect(_ subscription: EventSubscription, count: Int) async throws -> [UInt64] {
        var positions: [UInt64] = []
        for try await event in subscription {
            positions.append(event.position)
            if positions.count == count { break }
        }
        return positions
    }

    @Test func catchesUpThenFollowsConcurrentAppendsWithoutGapOrDuplicate() async throws {
        let log = try TestLog()
        defer { log.remove() }
        let store = log.store
        for index in 0..<300 { _ = try await store.append(request([event("pre-\(index % 7)")])) }
        let total = 1_300
        try await withThrowingTaskGroup(of: [UInt64].self) { group in
            for subscriber in 0..<8 {
                let start = UInt64(subscriber * 30 + 1)
                group.addTask { try await self.collect(store.subscribe(from: start), count: total - Int(start) + 1) }
            }
            for writer in 0..<4 {
                group.addTask {
                    for index in 0..<250 { _ = try await store.append(request([event("live-\(writer)", #"{"i":\#(index)}"#)])) }
                    return []
                }
            }
            var subscribers = 0
            for try await positions in group where !positions.isEmpty {
                subscribers += 1
                let start = positions[0]
                #expect(positions == Array(start...UInt64(total)), "in order, no gap, no duplicate")
            }
            #expect(subscribers == 8)
        }
    }

    @Test func aSubscriberThatNeverReadsDoesNotStallAppends() async throws {
        let log = try TestLog()
        defer { log.remove() }
        let store = log.store
        let stalled = store.subscribe(from: 1)
        var iterator = stalled.makeAsyncIterator()
        _ = try await store.append(request([event("s-1")]))
        #expect(try await iterator.next()?.position == 1)
        for _ in 0..<500 { _ = try await store.append(request([event("s-1")])) }
        #expect(try store.headPosition() == 501)
        #expect(try await iterator.next()?.position == 2, "the stalled subscriber resumes where it stopped")
    }

    @Test func cancellingTheTaskEndsAWaitingSubscription() async throws {
        let log = try TestLog()
        defer { log.remove() }
        let store = log.store
        let task = Task { try await self.collect(store.subscribe(from: 1), count: 10) }
        try await Task.sleep(for: .milliseconds(50))
        task.cancel()
        #expect(try await task.value.isEmpty)
    }

    @Test func closingTheStoreEndsSubscriptionsAfterDeliveringWhatIsStored() async throws {
        let log = try TestLog()
        defer { log.remove() }
        let store = log.store
        _ = try await store.append(request([event("s-1")]))
        let task = Task { try await self.collect(store.subscribe(from: 1), count: 100) }
        try await Task.sleep(for: .milliseconds(50))
        store.close()
        #expect(try await task.value == [1])
    }

    @Test func aReadOnlyStoreFollowsAnotherWriterByPolling() async throws {
        let log = try TestLog()
        defer { log.remove() }
        let reader = try log.reopen { $0.readOnly = true; $0.pollIntervalMilliseconds = 10 }
        let task = Task { try await self.collect(reader.subscribe(from: 1), count: 20) }
        for _ in 0..<20 { _ = try await log.store.append(request([event("s-1")])) }
        #expect(try await task.value == Array(1...20))
        #expect(try reader.headPosition() == 20)
        await #expect(throws: EventLogError.readOnly) { try await reader.append(request([event("s-1")])) }
    }
}
