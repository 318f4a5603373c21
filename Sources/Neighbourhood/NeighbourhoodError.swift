import EventSourcing

/// Every way the neighbourhood decider refuses a command. Codes are stable: clients switch on them.
public enum NeighbourhoodError: DomainError {
    /// Input out of range; the field errors say which (`title`, `description`, `category`,
    /// `location.latitude`, `location.longitude`, `message`).
    case validationFailed([FieldError])
    /// The actor has no postcode, so no neighbourhood to post in or read. A conflict with the
    /// account's state rather than a validation error: the request is fine, the profile lacks a
    /// postcode (`PATCH /v1/me` sets one).
    case noNeighbourhood
    /// No report with this id that the actor may see: never posted, deleted, or posted in
    /// another neighbourhood. One answer for all three, so that report ids of other
    /// neighbourhoods reveal nothing.
    case reportNotFound
    /// Only the author deletes a report. Forbidden rather than not-found: the actor can see the
    /// report (same neighbourhood), so hiding it would only confuse.
    case notTheAuthor
    /// A new report or reply id is already in use: a caller bug, never something to overwrite.
    case idTaken
    /// The report already has the most replies or followers it may have.
    case limitReached(NeighbourhoodLimit)

    /// Stable snake_case code for clients.
    public var code: String {
        switch self {
        case .validationFailed: "validation_failed"
        case .noNeighbourhood: "no_neighbourhood"
        case .reportNotFound: "report_not_found"
        case .notTheAuthor: "not_the_author"
        case .idTaken: "id_taken"
        case .limitReached: "limit_reached"
        }
    }

    /// The HTTP-independent kind.
    public var kind: DomainErrorKind {
        switch self {
        case .validationFailed: .validation
        case .reportNotFound: .notFound
        case .notTheAuthor: .forbidden
        case .noNeighbourhood, .idTaken, .limitReached: .conflict
        }
    }

    /// A sentence for a person.
    public var detail: String {
        switch self {
        case .validationFailed: "Some fields are invalid."
        case .noNeighbourhood: "Your profile has no postcode, so you have no neighbourhood; set one with PATCH /v1/me."
        case .reportNotFound: "There is no such report in your neighbourhood."
        case .notTheAuthor: "Only the author may delete a report."
        case .idTaken: "This id is already in use."
        case .limitReached(let limit): "This report already has the most \(limit.rawValue) it may have (\(limit.maximum))."
        }
    }

    /// Per-field problems of a validation failure.
    public var fieldErrors: [FieldError] {
        if case .validationFailed(let errors) = self { errors } else { [] }
    }
}
