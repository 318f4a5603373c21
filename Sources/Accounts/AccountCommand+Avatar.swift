extension AccountCommand {
    /// Show an image blob as the account's picture. The API stored the image and recorded its
    /// upload by this account first; the decider checks only the id's shape.
    public struct SetAvatar: Sendable, Equatable {
        /// The account, the caller's own.
        public var userId: String
        /// The uploaded image's id, as the API got it from the blob store.
        public var blobId: String

        /// `userId` shows `blobId`.
        public init(userId: String, blobId: String) {
            self.userId = userId
            self.blobId = blobId
        }
    }
}
