import EventSourcing

/// Why the accounts domain refuses a command. Codes are stable: clients switch on them.
public enum AccountError: DomainError {
    /// One or more fields are malformed or out of range; lists every one of them.
    case validationFailed([FieldError])
    /// Another account holds the e-mail (compared case-insensitively).
    case emailTaken
    /// Another account holds the username (compared case-insensitively).
    case usernameTaken
    /// No account has this id.
    case accountNotFound
    /// An account with this id exists already: the API generated an id twice.
    case accountAlreadyExists
    /// The reset token is unknown, expired, already used or for another account. One error for
    /// all of them, so a guesser learns nothing about which.
    case invalidResetToken
    /// A session or reset token with this hash is already pending for the account.
    case tokenInUse
    /// The verification token is unknown, expired, used or another account's. One error for all.
    case invalidVerificationToken
    /// The verification token was mailed to an e-mail the account has changed since.
    case emailChangedSinceMailed

    /// Stable snake_case code.
    public var code: String {
        switch self {
        case .validationFailed: "validation_failed"
        case .emailTaken: "email_taken"
        case .usernameTaken: "username_taken"
        case .accountNotFound: "account_not_found"
        case .accountAlreadyExists: "account_exists"
        case .invalidResetToken: "invalid_reset_token"
        case .tokenInUse: "token_in_use"
        case .invalidVerificationToken: "invalid_verification_token"
        case .emailChangedSinceMailed: "email_changed"
        }
    }

    /// How the API maps it to a status.
    public var kind: DomainErrorKind {
        switch self {
        case .validationFailed: .validation
        case .accountNotFound, .invalidResetToken, .invalidVerificationToken: .notFound
        case .emailTaken, .usernameTaken, .accountAlreadyExists, .tokenInUse, .emailChangedSinceMailed: .conflict
        }
    }

    /// A sentence for a person.
    public var detail: String {
        switch self {
        case .validationFailed: "Some fields are not valid."
        case .emailTaken: "Another account uses this e-mail address."
        case .usernameTaken: "Another account uses this username."
        case .accountNotFound: "There is no such account."
        case .accountAlreadyExists: "An account with this id exists already."
        case .invalidResetToken: "This password reset link is not valid (any more)."
        case .tokenInUse: "This token is already in use."
        case .invalidVerificationToken: "This e-mail verification link is not valid (any more)."
        case .emailChangedSinceMailed: "This verification link was sent to an e-mail address the account no longer has."
        }
    }

    /// The per-field problems of `validationFailed`.
    public var fieldErrors: [FieldError] {
        if case .validationFailed(let errors) = self { errors } else { [] }
    }
}
