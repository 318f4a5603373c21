import EventSourcing

extension AccountEvent {
    /// `account.erased`: the account is gone. It holds no personal data, only the tags it
    /// releases (stored as keyed hashes), so a new account may claim the same e-mail and
    /// username, and the other subjects whose keys every server destroys with the account's.
    public struct Erased: AccountPayload {
        public static let typeName = "account.erased"
        public var event: AccountEvent { .erased(self) }
        public var tags: [String] { [AccountNames.userTag(userId)] + releasedTags }

        /// The erased account.
        public var userId: String
        /// The e-mail and username tags the account held (plain as decided, stored keyed).
        public var releasedTags: [String]
        /// Other personal-data subjects erased with the account (keyed hashes of its address, for
        /// the invitations sent to it). Absent from erasures written before it existed, whose
        /// server destroyed those keys itself.
        public var erasedSubjects: [String]?


        /// Every subject whose key goes with this erasure: the account's own first.
        public var subjects: [String] { [userId] + (erasedSubjects ?? []) }
    }
}

// What of each payload is whose personal data (ADR 0004): the account's own e-mail, names,
// username and postcode. An erased account's names read "Deleted user", the rest reads empty.
extension AccountEvent.Registered: PersonalData {
    public static let personalFields: [PersonalField<Self>] =
        [.text(\.email, of: \.userId, erased: ""), .text(\.displayName, of: \.userId, erased: AccountNames.deletedUser),
         .optionalText(\.firstName, of: \.userId), .optionalText(\.lastName, of: \.userId),
         .optionalText(\.username, of: \.userId), .optionalText(\.postcode, of: \.userId)]
}

extension AccountEvent.ProfileUpdated: PersonalData {
    public static let personalFields: [PersonalField<Self>] =
        [.text(\.displayName, of: \.userId, erased: AccountNames.deletedUser), .optionalText(\.firstName, of: \.userId),
         .optionalText(\.lastName, of: \.userId), .optionalText(\.postcode, of: \.userId)]
}

extension AccountEvent.EmailChanged: PersonalData {
    public static let personalFields: [PersonalField<Self>] =
        [.text(\.oldEmail, of: \.userId, erased: ""), .text(\.newEmail, of: \.userId, erased: "")]
}

extension AccountEvent.UsernameChanged: PersonalData {
    public static let personalFields: [PersonalField<Self>] =
        [.optionalText(\.oldUsername, of: \.userId), .text(\.newUsername, of: \.userId, erased: "")]
}

/// The released tags are stored keyed, as the event's own tags are.
extension AccountEvent.Erased: PersonalData {
    public static let personalFields: [PersonalField<Self>] = [.tags(\.releasedTags, AccountNames.personalTags)]
}

extension AccountEvent.PasswordResetRequested: PersonalData {
    public static let personalFields: [PersonalField<Self>] = [.text(\.email, of: \.userId, erased: "")]
}
