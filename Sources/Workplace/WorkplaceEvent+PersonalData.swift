import EventSourcing

// What of the workplace's events is whose personal data (ADR 0004):
// - a member's name and employee number are the member's (the creator's name is the creator's);
// - a review's reviewer name is the reviewer's; its text answers and remark are both the
//   reviewer's, who wrote them, and the reviewed employee's, since they are what is said about
//   them: sealed under both keys, they read erased once either user is (ADR 0010);
// - a news item's author name, title and text are the author's, who wrote them.
// Once the subject is erased, names read "Deleted user" and the rest read empty (an absent
// remark stays absent). The names of organisations, locations and forms and the questions'
// texts belong to the organisation, written for all its members, and stay; so do ids, ratings,
// yes/no answers, times and image blob ids.

extension WorkplaceEvent.OrganisationRegistered: PersonalData {
    public static let personalFields: [PersonalField<Self>] =
        [.text(\.creatorName, of: \.creatorId, erased: PersonalDataSeal.deletedUser)]
}

extension WorkplaceEvent.JoinRequested: PersonalData {
    public static let personalFields: [PersonalField<Self>] =
        [.text(\.name, of: \.userId, erased: PersonalDataSeal.deletedUser), .text(\.employeeNumber, of: \.userId, erased: "")]
}

extension WorkplaceEvent.JoinRequestAccepted: PersonalData {
    public static let personalFields: [PersonalField<Self>] =
        [.text(\.name, of: \.userId, erased: PersonalDataSeal.deletedUser), .text(\.employeeNumber, of: \.userId, erased: "")]
}

extension WorkplaceEvent.ReviewSubmitted: PersonalData {
    public static let personalFields: [PersonalField<Self>] =
        [.text(\.reviewerName, of: \.reviewerId, erased: PersonalDataSeal.deletedUser),
         .eachOptionalText(\.answers, \.text, of: \.reviewerId, about: \.employeeId, erased: ""),
         .optionalText(\.remark, of: \.reviewerId, about: \.employeeId, erased: "")]
}

extension WorkplaceEvent.NewsPosted: PersonalData {
    public static let personalFields: [PersonalField<Self>] =
        [.text(\.authorName, of: \.authorId, erased: PersonalDataSeal.deletedUser),
         .text(\.title, of: \.authorId, erased: ""), .text(\.text, of: \.authorId, erased: "")]
}
