/// Who may see a house: what every household query checks first, kept in memory.
public struct HouseMembership: Sendable, Equatable {
    /// Whether the last member left; no one may see a closed house.
    public var isClosed: Bool
    /// The current members' user ids.
    public var memberIds: Set<String>

    /// Whether `userId` may see the house now.
    public func admits(_ userId: String) -> Bool {
        !isClosed && memberIds.contains(userId)
    }
}
