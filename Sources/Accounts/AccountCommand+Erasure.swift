extension AccountCommand {
    /// Erase the account. The API verified the password before building this.
    public struct Erase: Sendable, Equatable {
        /// The account, the caller's own.
        public var userId: String
        /// Other subjects whose keys go with the account (the invitations sent to its address,
        /// sealed under a subject of their own since the invitee may have had no account): the
        /// event names them, so every server sharing the log destroys them too.
        public var alsoErasing: [String]

        /// An erasure of `userId`, and of the keys of `alsoErasing`.
        public init(userId: String, alsoErasing: [String] = []) {
            self.userId = userId
            self.alsoErasing = alsoErasing
        }
    }
}
