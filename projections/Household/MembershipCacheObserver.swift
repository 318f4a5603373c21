import Household

/// Keeps the membership cache current: a house's members change only by these events.
struct MembershipCacheObserver: ProjectionObserver {
    let cache: ReadModelCache<String, HouseMembership>

    func committed(_ events: [ProjectedEvent]) {
        var changed: [String] = []
        for event in events {
            switch try? event.decoded(as: HouseholdEvent.self) {
            case let .houseCreated(p)?: changed.append(p.houseId)
            case let .memberJoined(p)?: changed.append(p.houseId)
            case let .memberLeft(p)?: changed.append(p.houseId)
            case let .houseClosed(p)?: changed.append(p.houseId)
            default: break
            }
        }
        if !changed.isEmpty { cache.invalidate(changed) }
    }

    func swapped(_ name: String) {
        if name == HouseholdProjections.houses.name { cache.invalidateAll() }
    }
}
