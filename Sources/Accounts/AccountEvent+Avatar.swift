import EventSourcing
extension AccountEvent {
    /// `account.avatarChanged`: the profile shows the image blob `blobId` as the account's
    /// picture. Only an id, not personal data by itself; the image is the user's, so erasure
    /// takes the avatar off the profile (the state and the profile read model forget it) and the
    /// blob, referenced by nothing then, is collected.
    public struct AvatarChanged: AccountPayload {
        public static let typeName = "account.avatarChanged"
        public var event: AccountEvent { .avatarChanged(self) }

        /// The account.
        public var userId: String
        /// The image blob now shown (64 lowercase hex digits), which the account uploaded.
        public var blobId: String

        /// `userId`'s avatar is now `blobId`.
        public init(userId: String, blobId: String) {
            self.userId = userId
            self.blobId = blobId
        }
    }
}
