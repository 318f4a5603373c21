import Household

extension MemberTopic {
    /// `house:<houseId>`: every event of a house, for its members. A member who leaves (or whose
    /// house closes) stops receiving them at that event. The household queries' own check:
    /// 404 `house_not_found`, 403 `not_a_member`.
    static let house = MemberTopic(
        name: "house", domain: HouseholdEvent.domain,
        recheckedOn: [HouseholdEvent.MemberLeft.typeName, HouseholdEvent.HouseClosed.typeName]
    ) { houseId, userId, api in
        try api.checkMember(houseId, userId)
    }
}
