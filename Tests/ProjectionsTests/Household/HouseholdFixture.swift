import EventLog
import EventSourcing
import Foundation
import Household
import Testing
@testable import Projections

/// The household read models fed by the real household decider.
typealias HouseholdFixture = DeciderFixture<HouseholdDecider>

extension DeciderFixture where D == HouseholdDecider {
    convenience init() async throws {
        try await self.init(projections: HouseholdProjections.all)
    }

    var queries: HouseholdQueries<LMDBEventStore> { HouseholdQueries(engine: engine) }
}

/// A join code the decider accepts: 22–64 URL-safe characters.
func joinCode(_ seed: String) -> String {
    seed + String(repeating: "x", count: max(0, 22 - seed.count))
}

/// Commands with readable defaults, so tests say only what matters to them.
extension HouseholdFixture {
    func createHouse(_ houseId: String, by userId: String, name: String = "Home", code: String? = nil) async throws {
        try await run(.createHouse(
            houseId: houseId, name: name, joinCode: code ?? joinCode(houseId), userId: userId, displayName: userId.capitalized),
            by: userId)
    }

    func join(_ houseId: String, _ userId: String, code: String? = nil, displayName: String? = nil) async throws {
        try await run(.joinHouse(
            houseId: houseId, joinCode: code ?? joinCode(houseId), userId: userId, displayName: displayName ?? userId.capitalized),
            by: userId)
    }

    @discardableResult
    func complete(_ houseId: String, _ taskId: String, by userId: String, at now: Date = start) async throws -> UInt64 {
        try await run(.completeTask(houseId: houseId, taskId: taskId), by: userId, at: now)
    }
}
