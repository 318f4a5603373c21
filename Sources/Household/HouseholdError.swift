import EventSourcing

/// Every way the household decider refuses a command. Codes are stable: clients switch on them.
public enum HouseholdError: DomainError {
    /// Input out of range; the field errors say which (`name`, `frequencyDays`, `points`, `joinCode`).
    case validationFailed([FieldError])
    /// No open house with this id: never created, or closed.
    case houseNotFound
    /// The actor is not a current member. Forbidden rather than not-found: house ids are random
    /// UUIDs that only (former) members learn, so hiding existence buys little, and a former
    /// member is better served by "you are not a member" than by a puzzling 404.
    case notAMember
    /// The presented join code is not the house's current one. Not-found, like an unknown code,
    /// so that a stale or guessed code reveals nothing.
    case wrongJoinCode
    /// The actor is already a member of a house (this one or another); a user has at most one.
    case alreadyInHouse
    /// No room with this id in the house.
    case roomNotFound
    /// No task with this id in the house.
    case taskNotFound
    /// Another room of the house already has this name, ignoring case.
    case roomNameTaken
    /// A new house, room or task id is already in use. Ids come from the caller; a collision
    /// means a caller bug or a reused id, never something to overwrite.
    case idTaken
    /// The command names a user other than the actor: one may only create or join as oneself.
    case actorMismatch
    /// The house already holds the most members, rooms or tasks per room it may.
    case limitReached(HouseholdLimit)

    /// Stable snake_case code for clients.
    public var code: String {
        switch self {
        case .validationFailed: "validation_failed"
        case .houseNotFound: "house_not_found"
        case .notAMember: "not_a_member"
        case .wrongJoinCode: "wrong_join_code"
        case .alreadyInHouse: "already_in_house"
        case .roomNotFound: "room_not_found"
        case .taskNotFound: "task_not_found"
        case .roomNameTaken: "room_name_taken"
        case .idTaken: "id_taken"
        case .actorMismatch: "actor_mismatch"
        case .limitReached: "limit_reached"
        }
    }

    /// The HTTP-independent kind.
    public var kind: DomainErrorKind {
        switch self {
        case .validationFailed: .validation
        case .houseNotFound, .wrongJoinCode, .roomNotFound, .taskNotFound: .notFound
        case .notAMember, .actorMismatch: .forbidden
        case .alreadyInHouse, .roomNameTaken, .idTaken, .limitReached: .conflict
        }
    }

    /// A sentence for a person.
    public var detail: String {
        switch self {
        case .validationFailed: "Some fields are invalid."
        case .houseNotFound: "There is no such house."
        case .notAMember: "You are not a member of this house."
        case .wrongJoinCode: "No house has this join code."
        case .alreadyInHouse: "You are already a member of a house; leave it first."
        case .roomNotFound: "There is no such room in this house."
        case .taskNotFound: "There is no such task in this house."
        case .roomNameTaken: "This house already has a room with this name."
        case .idTaken: "This id is already in use."
        case .actorMismatch: "You can only create or join a house as yourself."
        case .limitReached(let limit): "This house already has the most \(limit.rawValue) it may have (\(limit.maximum))."
        }
    }

    /// Per-field problems of a validation failure.
    public var fieldErrors: [FieldError] {
        if case .validationFailed(let errors) = self { errors } else { [] }
    }
}
