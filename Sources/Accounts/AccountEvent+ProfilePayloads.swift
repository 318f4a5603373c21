import EventSourcing
extension AccountEvent {
    /// `account.registered`: a new account with its e-mail, password hash and profile.
    public struct Registered: AccountPayload {
        public static let typeName = "account.registered"
        public var event: AccountEvent { .registered(self) }
        public var tags: [String] {
            [AccountNames.userTag(userId), AccountNames.emailTag(email)] + (username.map { [AccountNames.usernameTag($0)] } ?? [])
        }

        /// The new account's id.
        public var userId: String
        /// Normalised (trimmed, lowercased).
        public var email: String
        /// bcrypt; never the password.
        public var passwordHash: PasswordHash
        /// Trimmed.
        public var displayName: String
        /// Trimmed; absent when not given.
        public var firstName: String?
        /// Trimmed; absent when not given.
        public var lastName: String?
        /// As its owner wrote it (trimmed); its tag is lowercased.
        public var username: String?
        /// Normalised (upper-case, no whitespace).
        public var postcode: String?

        /// A registration.
        public init(
            userId: String, email: String, passwordHash: PasswordHash, displayName: String,
            firstName: String? = nil, lastName: String? = nil, username: String? = nil, postcode: String? = nil
        ) {
            self.userId = userId
            self.email = email
            self.passwordHash = passwordHash
            self.displayName = displayName
            self.firstName = firstName
            self.lastName = lastName
            self.username = username
            self.postcode = postcode
        }
    }

    /// `account.profileUpdated`: the profile fields after a change, all of them, so a read model
    /// sets them without needing earlier events and "removed" needs no special marker (absent).
    public struct ProfileUpdated: AccountPayload {
        public static let typeName = "account.profileUpdated"
        public var event: AccountEvent { .profileUpdated(self) }

        /// The account.
        public var userId: String
        /// The display name now.
        public var displayName: String
        /// The first name now; absent when none.
        public var firstName: String?
        /// The last name now; absent when none.
        public var lastName: String?
        /// The normalised postcode now; absent when none.
        public var postcode: String?
    }

    /// `account.emailChanged`: tagged with both e-mails, since it releases one and claims the other.
    public struct EmailChanged: AccountPayload {
        public static let typeName = "account.emailChanged"
        public var event: AccountEvent { .emailChanged(self) }
        public var tags: [String] { [AccountNames.userTag(userId), AccountNames.emailTag(oldEmail), AccountNames.emailTag(newEmail)] }

        /// The account.
        public var userId: String
        /// The released e-mail, normalised.
        public var oldEmail: String
        /// The claimed e-mail, normalised.
        public var newEmail: String

        /// A move from `oldEmail` to `newEmail`.
        public init(userId: String, oldEmail: String, newEmail: String) {
            self.userId = userId
            self.oldEmail = oldEmail
            self.newEmail = newEmail
        }
    }

    /// `account.usernameChanged`: tagged with both usernames (lowercased).
    public struct UsernameChanged: AccountPayload {
        public static let typeName = "account.usernameChanged"
        public var event: AccountEvent { .usernameChanged(self) }
        public var tags: [String] {
            [AccountNames.userTag(userId)] + (oldUsername.map { [AccountNames.usernameTag($0)] } ?? []) + [AccountNames.usernameTag(newUsername)]
        }

        /// The account.
        public var userId: String
        /// The released username as written; absent when the account had none.
        public var oldUsername: String?
        /// The claimed username as written.
        public var newUsername: String
    }
}
