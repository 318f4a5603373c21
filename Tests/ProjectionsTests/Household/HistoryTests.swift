import EventLog
import Foundation
import Household
import Testing
@testable import Projections

@Suite("Household read models: history", .timeLimit(.minutes(3)))
struct HistoryTests {
    private let start = HouseholdFixture.start

    /// Houses `h1` (ann, bob) and `h2` (cara), each with task `t1` in room `r1`.
    private func twoHouses() async throws -> HouseholdFixture {
        let fixture = try await HouseholdFixture()
        for (house, founder) in [("h1", "ann"), ("h2", "cara")] {
            try await fixture.createHouse(house, by: founder)
            try await fixture.run(.addRoom(houseId: house, roomId: "r1", name: "Kitchen"), by: founder)
            try await fixture.run(.addTask(houseId: house, roomId: "r1", taskId: "t1", name: "Dishes", frequencyDays: 1, points: 2), by: founder)
        }
        try await fixture.join("h1", "bob")
        return fixture
    }

    /// Every page of `house`'s history at `limit` items a page.
    private func allPages(_ fixture: HouseholdFixture, house: String, limit: Int) async throws -> [HistoryPage] {
        var pages = [try await fixture.queries.history(house: house, limit: limit, cursor: nil)]
        while let next = pages.last?.next { pages.append(try await fixture.queries.history(house: house, limit: limit, cursor: next)) }
        return pages
    }

    @Test func historyIsNewestFirstAndPagesNeitherRepeatNorSkip() async throws {
        let fixture = try await twoHouses()
        defer { fixture.close() }
        var positions: [UInt64] = []
        for index in 0..<7 {
            let doer = index.isMultiple(of: 2) ? "ann" : "bob"
            positions.append(try await fixture.complete("h1", "t1", by: doer, at: start + Double(index) * 60))
            try await fixture.complete("h2", "t1", by: "cara")
        }
        let pages = try await allPages(fixture, house: "h1", limit: 3)
        #expect(pages.map(\.items.count) == [3, 3, 1])
        #expect(pages.flatMap(\.items).map(\.position) == positions.reversed())
        #expect(pages.last?.next == nil)
        let newest = try #require(pages.first?.items.first)
        #expect(newest == HistoryItem(
            taskId: "t1", taskName: "Dishes", roomId: "r1", roomName: "Kitchen", userId: "ann", displayName: "Ann",
            points: 2, doneAt: start + 6 * 60, position: positions[6]))

        // An exact multiple of the limit ends without a `next` that leads to an empty page.
        #expect(try await allPages(fixture, house: "h1", limit: 7).map(\.items.count) == [7])
        #expect(try await allPages(fixture, house: "h2", limit: 500).flatMap(\.items).allSatisfy { $0.userId == "cara" })
    }

    @Test func completionsBetweenPageReadsDoNotShiftLaterPages() async throws {
        let fixture = try await twoHouses()
        defer { fixture.close() }
        for _ in 0..<4 { try await fixture.complete("h1", "t1", by: "ann") }
        let first = try await fixture.queries.history(house: "h1", limit: 2, cursor: nil)
        try await fixture.complete("h1", "t1", by: "bob")
        let second = try await fixture.queries.history(house: "h1", limit: 2, cursor: first.next)
        #expect(second.items.allSatisfy { $0.userId == "ann" })
        #expect(Set((first.items + second.items).map(\.position)).count == 4)
        #expect(second.next == nil)
    }

    @Test func historyKeepsNamesAsTheyWereWhenDone() async throws {
        let fixture = try await twoHouses()
        defer { fixture.close() }
        try await fixture.complete("h1", "t1", by: "ann")
        try await fixture.run(.renameRoom(houseId: "h1", roomId: "r1", name: "Keuken"), by: "ann")
        try await fixture.run(.editTask(houseId: "h1", taskId: "t1", name: "Afwas", frequencyDays: nil, points: 9), by: "ann")
        try await fixture.complete("h1", "t1", by: "bob")
        try await fixture.run(.removeTask(houseId: "h1", taskId: "t1"), by: "ann")
        let items = try await fixture.queries.history(house: "h1", limit: 10, cursor: nil).items
        #expect(items.map(\.taskName) == ["Afwas", "Dishes"])
        #expect(items.map(\.roomName) == ["Keuken", "Kitchen"])
        #expect(items.map(\.points) == [9, 2])
    }

    @Test func limitsAndCursorsAreChecked() async throws {
        let fixture = try await twoHouses()
        defer { fixture.close() }
        for _ in 0..<3 { try await fixture.complete("h1", "t1", by: "ann") }
        try await fixture.complete("h2", "t1", by: "cara")
        try await fixture.complete("h2", "t1", by: "cara")
        let allowed = ListPage.itemsPerPage
        await #expect(throws: ListQueryError.limitOutOfRange(0, allowed: allowed)) {
            try await fixture.queries.history(house: "h1", limit: 0, cursor: nil)
        }
        await #expect(throws: ListQueryError.limitOutOfRange(501, allowed: allowed)) {
            try await fixture.queries.history(house: "h1", limit: 501, cursor: nil)
        }
        #expect(try await fixture.queries.history(house: "h1", limit: 1, cursor: nil).items.count == 1)
        #expect(try await fixture.queries.history(house: "h1", limit: 500, cursor: nil).items.count == 3)

        let otherHouses = try #require(try await fixture.queries.history(house: "h2", limit: 1, cursor: nil).next)
        let madeUp = PageCursor.encode(HouseholdKeys.housePrefix("h1") + "not-a-position-at-all")
        for cursor in ["", "!!!", "aDE", otherHouses, madeUp] {
            await #expect(throws: ListQueryError.malformedCursor, "cursor \(cursor)") {
                try await fixture.queries.history(house: "h1", limit: 10, cursor: cursor)
            }
        }
    }

    /// Given a history row written by hand that names an event which is not a completion (the
    /// house's creation), or a position the log does not hold, when the history is read, then it
    /// is a fault of the service: `undecodable` naming the log and the position, never a page
    /// with an item missing or made up.
    @Test func aRowThatNamesNoCompletionIsUndecodable() async throws {
        let fixture = try await twoHouses()
        defer { fixture.close() }
        try await fixture.complete("h1", "t1", by: "ann")
        let history = HouseholdProjections.history
        let tables = try fixture.engine.store.tables(of: history, generation: 0)
        for (position, reason) in [(UInt64(1), "is not a completion"), (10_000, "the log has none")] {
            let key = HouseholdKeys.history(house: "h1", position: position)
            try fixture.engine.store.write { txn in
                try ReadModelWriter(transaction: txn, projection: history.name, tables: tables)
                    .put(position, at: key, in: HouseholdHistoryProjection.history)
            }
            let refusal = await #expect(throws: ListQueryError.self) {
                try await fixture.queries.history(house: "h1", limit: 10, cursor: nil)
            }
            guard case .readModel(.undecodable(let table, let stored, let why))? = refusal else {
                Issue.record("position \(position): \(String(describing: refusal))")
                continue
            }
            #expect(table == "the log" && stored == String(position) && why.contains(reason), "\(why)")
            _ = try fixture.engine.store.write { txn in
                try ReadModelWriter(transaction: txn, projection: history.name, tables: tables).delete(key, in: HouseholdHistoryProjection.history)
            }
        }
        #expect(try await fixture.queries.history(house: "h1", limit: 10, cursor: nil).items.map(\.userId) == ["ann"])
    }
}
