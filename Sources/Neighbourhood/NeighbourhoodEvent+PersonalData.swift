import EventSourcing

// What of the neighbourhood's events is whose personal data (ADR 0004): the author's display
// name and every text the author wrote (a report's title and description, a reply). Once the
// author is erased, names read "Deleted user" and texts read empty; the report, its place,
// category, times and reply count stay.

extension NeighbourhoodEvent.ReportPosted: PersonalData {
    public static let personalFields: [PersonalField<Self>] =
        [.text(\.authorDisplayName, of: \.authorId, erased: PersonalDataSeal.deletedUser),
         .text(\.title, of: \.authorId, erased: ""), .text(\.description, of: \.authorId, erased: "")]
}

extension NeighbourhoodEvent.ReplyPosted: PersonalData {
    public static let personalFields: [PersonalField<Self>] =
        [.text(\.authorDisplayName, of: \.authorId, erased: PersonalDataSeal.deletedUser),
         .text(\.message, of: \.authorId, erased: "")]
}
