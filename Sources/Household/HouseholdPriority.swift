import Foundation

/// How urgent a task is, from the time since it was last done against its frequency. Pure, so
/// the read model that lists a room's tasks computes it at query time with the service clock.
public enum HouseholdPriority: String, Sendable, Equatable, Codable, CaseIterable {
    /// Less than half the period has passed since it was last done.
    case low
    /// Half the period or more, but not yet the whole period.
    case medium
    /// Due, overdue, or never done.
    case high

    /// The priority at `now` of a task done last at `lastDoneAt` that recurs every
    /// `frequencyDays`. A day is 86 400 seconds: times are UTC, so there is no daylight saving
    /// to account for. A `lastDoneAt` after `now` (clock skew between servers) counts as just
    /// done.
    public static func of(lastDoneAt: Date?, frequencyDays: Int, now: Date) -> HouseholdPriority {
        // The decider keeps frequencyDays in 1...365; a bad stored value would read as always due.
        assert(frequencyDays > 0, "frequencyDays is positive")
        guard let lastDoneAt else { return .high }
        let elapsedSeconds = now.timeIntervalSince(lastDoneAt)
        let periodSeconds = Double(frequencyDays) * 86_400
        if elapsedSeconds >= periodSeconds { return .high }
        if elapsedSeconds * 2 >= periodSeconds { return .medium }
        return .low
    }
}
