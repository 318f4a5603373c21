import EventLog
import EventSourcing
import Foundation
import Synchronization
import Testing
@testable import Projections

/// `ProjectionEngine.logItems(at:)`: what a query makes of the log's events is made once and
/// answered from `LogItemCache` after, until a user whose data it shows is erased; only for the
/// engine's own keyring.
@Suite("Log items kept for readers", .timeLimit(.minutes(2)))
struct LogItemCacheTests {
    /// Whose personal data the item at `position` shows in these tests.
    private static func subjects(_ position: UInt64) -> [String] { position.isMultiple(of: 2) ? ["eve"] : ["ann", "bob"] }

    /// How many items were made.
    private final class Made: Sendable {
        private let count = Atomic(0)
        func add() { count.add(1, ordering: .relaxed) }
        var value: Int { count.load(ordering: .relaxed) }
    }

    /// Makes each record's position, counting the makings.
    private static func items(_ engine: ProjectionEngine<LMDBEventStore>, _ positions: [UInt64], made: Made) async throws -> [UInt64] {
        try await engine.logItems(at: positions, subjects: { Self.subjects($0) }) { record in
            made.add()
            return record.position
        }
    }

    @Test func aPageIsMadeOnceAndMadeAgainOnlyForAnErasedUsersItems() async throws {
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
        #expect(made.value == 4, "only Eve's item made again")
        #expect(try await Self.items(fixture.engine, positions, made: made) == positions)
        #expect(made.value == 5, "an erased user's item is not kept")
    }

    @Test func anotherKeyringsItemsAreNeitherKeptNorAnsweredFromWhatWasKept() async throws {
        let keys = try TemporaryKeyStore(), other = try TemporaryKeyStore()
        defer { keys.remove(); other.remove() }
        let fixture = try await HouseholdFixture(projections: HouseholdProjections.all, personalData: keys.keyring)
        defer { fixture.close() }
        try await fixture.createHouse("h1", by: "ann")
        for subject in ["ann", "bob"] { _ = try keys.keyring.dataKey(of: subject, create: true) }
        let made = Made()
        try await PersonalDataKeys.$current.withValue(other.keyring) {
            _ = try await Self.items(fixture.engine, [1], made: made)
        }
        #expect(fixture.engine.logItemCache.count == 0)
        _ = try await Self.items(fixture.engine, [1], made: made)
        #expect(fixture.engine.logItemCache.count == 1)
        try await PersonalDataKeys.$current.withValue(other.keyring) {
            _ = try await Self.items(fixture.engine, [1], made: made)
        }
        #expect(made.value == 3, "the other keyring's reads made it each time")
    }
}
