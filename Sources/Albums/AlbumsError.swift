import EventSourcing

/// Every way the albums decider refuses a command. Codes are stable: clients switch on them.
///
/// A group the actor is not a member of does not exist for them: `groupNotFound` either way, so
/// an outsider learns nothing of a group, not even that its id is taken.
public enum AlbumsError: DomainError {
    /// Input out of range; the field errors say which (`name`, `email`, `description`, `text`).
    case validationFailed([FieldError])
    /// No such group, or one the actor is not a member of.
    case groupNotFound
    /// The actor already owns a group of this name (case-insensitively).
    case groupNameTaken
    /// The address is a member already.
    case alreadyInvited
    /// No such photo in the group.
    case photoNotFound
    /// Only the member who added a photo deletes it.
    case notTheOwner
    /// A new id is already in use: a caller bug, never something to overwrite.
    case idTaken
    /// A count limit was reached.
    case limitReached(AlbumsLimit)

    /// Stable snake_case code for clients.
    public var code: String {
        switch self {
        case .validationFailed: "validation_failed"
        case .groupNotFound: "group_not_found"
        case .groupNameTaken: "group_name_taken"
        case .alreadyInvited: "already_invited"
        case .photoNotFound: "photo_not_found"
        case .notTheOwner: "not_the_owner"
        case .idTaken: "id_taken"
        case .limitReached: "limit_reached"
        }
    }

    /// The HTTP-independent kind.
    public var kind: DomainErrorKind {
        switch self {
        case .validationFailed: .validation
        case .groupNotFound, .photoNotFound: .notFound
        case .notTheOwner: .forbidden
        case .groupNameTaken, .alreadyInvited, .idTaken, .limitReached: .conflict
        }
    }

    /// A sentence for a person.
    public var detail: String {
        switch self {
        case .validationFailed: "Some fields are invalid."
        case .groupNotFound: "There is no such group, or you are not a member of it."
        case .groupNameTaken: "You already have a group with this name."
        case .alreadyInvited: "This address is already a member of the group."
        case .photoNotFound: "The group has no such photo."
        case .notTheOwner: "Only the member who added a photo may delete it."
        case .idTaken: "This id is already in use."
        case .limitReached(let limit): "The group already has the most \(limit.rawValue) it may have (\(limit.maximum))."
        }
    }

    /// Per-field problems of a validation failure.
    public var fieldErrors: [FieldError] {
        if case .validationFailed(let errors) = self { errors } else { [] }
    }
}
