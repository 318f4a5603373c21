import Crypto
import EventLog
import EventSourcing
import Foundation
import Synchronization
import Testing
@testable import Projections

/// `ProjectionEngine.logItems(at:)`: what a query makes of the log's events is made once and
/// answered from `LogItemCache` after, until the keyring learns of an erasure; only when the
/// engine's keyring counts its erasures.
@Suite("Log items kept for readers", .timeLimit(.minutes(2)))
struct LogItemCacheTests {
    /// How many items were made.
    private final class Made: Sendable {
        private let count = Atomic(0)
        func add() { count.add(1, ordering: .relaxed) }
        var value: Int { count.load(ordering: .relaxed) }
    }

    /// Makes each record's position, counting the makings.
    private static func items(_ engine: ProjectionEngine<LMDBEventStore>, _ positions: [UInt64], made: Made) async throws -> [UInt64] {
        try await engine.logItems(at: positions) { record in
            made.add()
            return record.position
        }
    }

    @Test func aPageIsMadeOnceAndMadeAgainAfterAnErasure() async throws {
        let keys = try TemporaryKeyStore()
        defer { keys.remove() }
        let fixture = try await HouseholdFixture(projections: HouseholdProjections.all, personalData: keys.keyring)
        defer { fixture.close() }
        try await fixture.createHouse("h1", by: "ann")
        try await fixture.join("h1", "eve", displayName: "Eve")
        try await fixture.join("h1", "bob", displayName: "Bob")
        let positions: [UInt64] = [3, 1, 2]
        for subject in ["ann", "bob", "eve"] { _ = try keys.keyring.dataKey(of: subject, create: true) }
        let made = Made()

        #expect(try await Self.items(fixture.engine, positions, made: made) == positions)
        #expect(made.value == 3 && fixture.engine.logItemCache.count == 3)
        #expect(try await Self.items(fixture.engine, positions + [1], made: made) == positions + [1])
        #expect(made.value == 3, "every item answered from what was kept")

        try keys.keyring.erase("eve")
        #expect(try await Self.items(fixture.engine, positions, made: made) == positions)
        #expect(made.value == 6, "everything made again after the erasure")
        #expect(try await Self.items(fixture.engine, positions, made: made) == positions)
        #expect(made.value == 6, "and kept again: an erased user stays erased")
    }

    @Test func valuesOpenedBeforeAnErasureAReaderHasSeenAreNotKept() {
        let cache = LogItemCache()
        #expect(cache.values(String.self, at: [1], erasures: 0) == [nil])
        cache.keep([1: "Eve"], erasures: 0)
        #expect(cache.values(String.self, at: [1], erasures: 0) == ["Eve"])

        #expect(cache.values(String.self, at: [1], erasures: 1) == [nil], "the erasure forgets what was kept")
        #expect(cache.count == 0)
        cache.keep([1: "Eve"], erasures: 0)  // opened by a reader that started before the erasure
        #expect(cache.count == 0 && cache.values(String.self, at: [1], erasures: 1) == [nil])
        cache.keep([1: "Deleted user"], erasures: 1)
        #expect(cache.values(String.self, at: [1], erasures: 1) == ["Deleted user"])
    }

    @Test func valuesOfTwoTypesAtOnePositionAreKeptApartAndBounded() {
        let cache = LogItemCache()
        cache.keep([7: "seven"], erasures: 0)
        cache.keep([7: 7], erasures: 0)
        #expect(cache.values(String.self, at: [7, 8], erasures: 0) == ["seven", nil])
        #expect(cache.values(Int.self, at: [7], erasures: 0) == [7])
        #expect(cache.count == 2)

        let many = Dictionary(uniqueKeysWithValues: (1...UInt64(LogItemCache.entriesMax - 2)).map { ($0 + 100, Int($0)) })
        cache.keep(many, erasures: 0)
        #expect(cache.count == LogItemCache.entriesMax, "up to the bound, nothing forgotten")
        cache.keep([1: 1], erasures: 0)
        #expect(cache.count == 1, "past the bound, everything forgotten at once")
        #expect(cache.values(String.self, at: [7], erasures: 0) == [nil])
    }

    @Test func anEngineWithoutAKeyringThatCountsErasuresKeepsNothing() async throws {
        for keyring: (any PersonalDataKeyring)? in [nil, Uncounted()] {
            let fixture = try await HouseholdFixture(projections: HouseholdProjections.all, personalData: keyring)
            defer { fixture.close() }
            try await fixture.createHouse("h1", by: "ann")
            let made = Made()
            _ = try await Self.items(fixture.engine, [1], made: made)
            _ = try await Self.items(fixture.engine, [1], made: made)
            #expect(made.value == 2 && fixture.engine.logItemCache.count == 0, "made for each read: nothing tells it of an erasure")
        }
    }

    /// A keyring that cannot tell how many subjects it knows erased.
    private struct Uncounted: PersonalDataKeyring {
        func dataKey(of subject: String, create: Bool) throws -> SymmetricKey? { SymmetricKey(data: Data(repeating: 7, count: 32)) }
        func blindTag(_ purpose: String, _ value: String) -> String { value }
    }
}
