import EventSourcing

// What of the albums' events is whose personal data (ADR 0004):
// - the creator's address is the creator's (`ownerId`);
// - an invited address is sealed under a subject of its own (`emailSubject`, keyed by the
//   sealing step: `AlbumsNames.invitees`), since its holder may have no account yet; erasing the
//   account that holds the address erases that subject too;
// - a claimed address is the claimant's (`userId`), who verified it;
// - the address that left is the leaver's (`userId`);
// - a photo's description and a chat message are their author's, who wrote them, and so are the
//   author's name at the time.
// Once the subject is erased, names read "Deleted user" and the rest read empty; an empty
// address is no invitation (`AlbumsState.Group.pendingInvitations`). Group names belong to the group, written
// for all its members, and stay; so do ids, blob ids and times.

extension AlbumsEvent.GroupCreated: PersonalData {
    public static let personalFields: [PersonalField<Self>] =
        [.text(\.ownerEmail, of: \.ownerId, erased: "")]
}

extension AlbumsEvent.MemberInvited: PersonalData {
    public static let personalFields: [PersonalField<Self>] =
        [.keyedName(\.emailSubject, AlbumsNames.invitees, of: { EmailAddress.normalised($0.email) }),
         .text(\.email, of: \.emailSubject, erased: "")]
}

extension AlbumsEvent.InvitationClaimed: PersonalData {
    public static let personalFields: [PersonalField<Self>] =
        [.text(\.email, of: \.userId, erased: "")]
}

extension AlbumsEvent.MemberLeft: PersonalData {
    public static let personalFields: [PersonalField<Self>] =
        [.text(\.email, of: \.userId, erased: "")]
}

extension AlbumsEvent.PhotoAdded: PersonalData {
    public static let personalFields: [PersonalField<Self>] =
        [.text(\.description, of: \.addedBy, erased: ""), .text(\.addedByName, of: \.addedBy, erased: PersonalDataSeal.deletedUser)]
}

extension AlbumsEvent.MessagePosted: PersonalData {
    public static let personalFields: [PersonalField<Self>] =
        [.text(\.text, of: \.authorId, erased: ""), .text(\.authorName, of: \.authorId, erased: PersonalDataSeal.deletedUser)]
}
