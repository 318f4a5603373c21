import Foundation
import Testing
@testable import Household

/// Priority from the time since a task was last done against its frequency.
@Suite("Household priority")
struct HouseholdPriorityTests {
    let now = Fixture.now
    let day: TimeInterval = 86_400

    func priority(doneSecondsAgo seconds: TimeInterval, frequencyDays: Int) -> HouseholdPriority {
        HouseholdPriority.of(lastDoneAt: now.addingTimeInterval(-seconds), frequencyDays: frequencyDays, now: now)
    }

    @Test func neverDoneIsHigh() {
        #expect(HouseholdPriority.of(lastDoneAt: nil, frequencyDays: 365, now: now) == .high)
    }

    @Test func aWeeklyTaskAtItsBoundaries() {
        #expect(priority(doneSecondsAgo: 0, frequencyDays: 7) == .low)
        #expect(priority(doneSecondsAgo: 3.5 * day - 1, frequencyDays: 7) == .low)
        #expect(priority(doneSecondsAgo: 3.5 * day, frequencyDays: 7) == .medium, "exactly half the period")
        #expect(priority(doneSecondsAgo: 7 * day - 1, frequencyDays: 7) == .medium)
        #expect(priority(doneSecondsAgo: 7 * day, frequencyDays: 7) == .high, "exactly due")
        #expect(priority(doneSecondsAgo: 30 * day, frequencyDays: 7) == .high, "overdue")
    }

    @Test func aDailyTaskAtItsBoundaries() {
        #expect(priority(doneSecondsAgo: 12 * 3_600 - 0.001, frequencyDays: 1) == .low)
        #expect(priority(doneSecondsAgo: 12 * 3_600, frequencyDays: 1) == .medium)
        #expect(priority(doneSecondsAgo: day - 0.001, frequencyDays: 1) == .medium)
        #expect(priority(doneSecondsAgo: day, frequencyDays: 1) == .high)
    }

    @Test func doneInTheFutureCountsAsJustDone() {
        #expect(priority(doneSecondsAgo: -60, frequencyDays: 1) == .low)
    }

    @Test func rawValuesAreWhatTheAPIShows() {
        #expect(HouseholdPriority.allCases.map(\.rawValue) == ["low", "medium", "high"])
    }
}
