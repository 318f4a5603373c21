import Household

/// Keeps the household caches current: a house's members change only by its membership events,
/// and its scoreboard by those and completions. An erasure changes no stored house (the names
/// are sealed): the scoreboards, which hold names opened, forget them when the keyring learns of
/// it (`ReadModelCache.value(_:openedUnder:orRead:)`), which is after her key is destroyed.
struct HouseCacheObserver: ProjectionObserver {
    let memberships: ReadModelCache<String, HouseMembership>
    let scoreboards: ReadModelCache<String, [ScoreboardEntry]>

    func committed(_ events: [ProjectedEvent]) {
        var members: [String] = []
        var points: [String] = []
        for event in events {
            switch try? event.decoded(as: HouseholdProjectionInput.self)?.event {
            case let .houseCreated(p)?: members.append(p.houseId)
            case let .memberJoined(p)?: members.append(p.houseId)
            case let .memberLeft(p)?: members.append(p.houseId)
            case let .houseClosed(p)?: members.append(p.houseId)
            case let .taskCompleted(p)?: points.append(p.houseId)
            default: break
            }
        }
        if !members.isEmpty { memberships.invalidate(members) }
        if !members.isEmpty || !points.isEmpty { scoreboards.invalidate(members + points) }
    }

    func swapped(_ name: String) {
        guard name == HouseholdProjections.houses.name else { return }
        memberships.invalidateAll()
        scoreboards.invalidateAll()
    }
}
