import Foundation
import Testing
@testable import EventLog

/// Appends on LMDB alone; what every backend guarantees is in Conformance/.
@Suite("Append", .timeLimit(.minutes(3)))
struct AppendTests {
    @Test func concurrentRetriesOfOneCommandAppendOnce() async throws {
        let log = try TestLog()
        defer { log.remove() }
        let commandID = UUID()
        let store = log.store
        let results = try await withThrowingTaskGroup(of: AppendResult.self) { group in
            for _ in 0..<32 { group.addTask { try await store.append(request([event("s-1")], commandID: commandID)) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(results.map(\.firstPosition)) == [1])
        #expect(results.filter { !$0.isReplay }.count == 1)
        #expect(try store.headPosition() == 1)
    }

    @Test func appendAfterCloseIsAnError() async throws {
        let log = try TestLog()
        defer { log.remove() }
        log.store.close()
        await #expect(throws: EventLogError.closed) { try await log.store.append(request([event("s-1")])) }
    }
}

/// Hands out the given dates in turn, then repeats the last.
final class TimeSource: @unchecked Sendable {
    private var dates: [Date]
    private let lock = NSLock()
    init(_ dates: [Date]) { self.dates = dates }
    func next() -> Date {
        lock.withLock { dates.count > 1 ? dates.removeFirst() : dates[0] }
    }
}
