import EventSourcing

// What of the household's events is whose personal data (ADR 0004): a member's display name is
// theirs and reads "Deleted user" once they are erased. The names of a house, its rooms and
// tasks are the house's, shared by its members and written for them, not personal data of
// whoever typed them: they stay, as do ids, points and times.

extension HouseholdEvent.HouseCreated: PersonalData {
    public static let personalFields: [PersonalField<Self>] =
        [.text(\.creatorDisplayName, of: \.creatorId, erased: PersonalDataSeal.deletedUser)]
}

extension HouseholdEvent.MemberJoined: PersonalData {
    public static let personalFields: [PersonalField<Self>] =
        [.text(\.displayName, of: \.userId, erased: PersonalDataSeal.deletedUser)]
}

extension HouseholdEvent.TaskCompleted: PersonalData {
    public static let personalFields: [PersonalField<Self>] =
        [.text(\.displayName, of: \.userId, erased: PersonalDataSeal.deletedUser)]
}
