extension AccountCommand {
    /// Erase the account. The API verified the password before building this.
    public struct Erase: Sendable, Equatable {
        /// The account, the caller's own.
        public var userId: String

        /// An erasure of `userId`.
        public init(userId: String) {
            self.userId = userId
        }
    }
}
