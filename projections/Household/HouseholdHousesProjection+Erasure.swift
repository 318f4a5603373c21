import Accounts
import EventSourcing

extension HouseholdHousesProjection {
    /// An erased user's name in the house she is a member of reads "Deleted user" from the batch
    /// that projects `account.erased` on, as a rebuild with her key destroyed reads it, so the
    /// erasure's answer already shows it (ADR 0010). One house at most: a former house no longer
    /// lists her. `HouseCacheObserver` forgets the cached members and scoreboards with it.
    func applyErasure(_ event: AccountEvent, _ model: ReadModelWriter) throws {
        guard case .erased(let p) = event,
              let houseId = try model.value(String.self, at: p.userId, in: Self.memberships) else { return }
        try model.update(StoredHouse.self, at: houseId, in: Self.houses) { house in
            for index in house.view.members.indices where house.view.members[index].userId == p.userId {
                house.view.members[index].displayName = PersonalDataSeal.deletedUser
            }
        }
    }
}
