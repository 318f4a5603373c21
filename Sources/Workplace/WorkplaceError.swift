import EventSourcing

/// Every way the workplace decider refuses a command. Codes are stable: clients switch on them.
///
/// Not-found and not-a-member are one answer for outsiders: a user who is not an accepted
/// member of an organisation learns nothing of it but what the public directory shows.
public enum WorkplaceError: DomainError {
    /// Input out of range; the field errors say which (`name`, `locations[0].name`,
    /// `questions[1].kind`, `answers`, `remark`, …).
    case validationFailed([FieldError])
    /// No such organisation.
    case organisationNotFound
    /// Another organisation has this name (case-insensitively).
    case organisationNameTaken
    /// The actor is not an accepted member of the organisation.
    case notAMember
    /// Only admins do this.
    case notAnAdmin
    /// No such location in the organisation.
    case locationNotFound
    /// Another location of the organisation has this name.
    case locationNameTaken
    /// Members or pending requests are at the location.
    case locationInUse
    /// The organisation's only location cannot be removed.
    case lastLocation
    /// The actor already has a pending request here.
    case requestPending
    /// The actor is already a member here.
    case alreadyAMember
    /// No pending request from this user.
    case joinRequestNotFound
    /// No such member.
    case memberNotFound
    /// The organisation's last admin cannot leave, be removed or lose the flag.
    case lastAdmin
    /// No such form.
    case formNotFound
    /// Another form of the organisation has this name.
    case formNameTaken
    /// No such question in the form.
    case questionNotFound
    /// A form keeps at least one question: a review of a form without questions would say nothing.
    case lastQuestion
    /// No such review, or one the viewer may not see (someone else's, to an employee).
    case reviewNotFound
    /// No such news item.
    case newsNotFound
    /// A new id is already in use: a caller bug, never something to overwrite.
    case idTaken
    /// A count limit was reached (locations, forms, questions, members).
    case limitReached(WorkplaceLimit)

    /// Stable snake_case code for clients.
    public var code: String {
        switch self {
        case .validationFailed: "validation_failed"
        case .organisationNotFound: "organisation_not_found"
        case .organisationNameTaken: "organisation_name_taken"
        case .notAMember: "not_a_member"
        case .notAnAdmin: "not_an_admin"
        case .locationNotFound: "location_not_found"
        case .locationNameTaken: "location_name_taken"
        case .locationInUse: "location_in_use"
        case .lastLocation: "last_location"
        case .requestPending: "request_pending"
        case .alreadyAMember: "already_a_member"
        case .joinRequestNotFound: "join_request_not_found"
        case .memberNotFound: "member_not_found"
        case .lastAdmin: "last_admin"
        case .formNotFound: "form_not_found"
        case .formNameTaken: "form_name_taken"
        case .questionNotFound: "question_not_found"
        case .lastQuestion: "last_question"
        case .reviewNotFound: "review_not_found"
        case .newsNotFound: "news_not_found"
        case .idTaken: "id_taken"
        case .limitReached: "limit_reached"
        }
    }

    /// The HTTP-independent kind.
    public var kind: DomainErrorKind {
        switch self {
        case .validationFailed: .validation
        case .organisationNotFound, .locationNotFound, .joinRequestNotFound, .memberNotFound, .formNotFound,
             .questionNotFound, .reviewNotFound, .newsNotFound:
            .notFound
        case .notAMember, .notAnAdmin: .forbidden
        case .organisationNameTaken, .locationNameTaken, .locationInUse, .lastLocation, .requestPending,
             .alreadyAMember, .lastAdmin, .formNameTaken, .lastQuestion, .idTaken, .limitReached:
            .conflict
        }
    }

    /// A sentence for a person.
    public var detail: String {
        switch self {
        case .validationFailed: "Some fields are invalid."
        case .organisationNotFound: "There is no such organisation."
        case .organisationNameTaken: "Another organisation already has this name."
        case .notAMember: "Only accepted members of the organisation may do this."
        case .notAnAdmin: "Only the organisation's admins may do this."
        case .locationNotFound: "The organisation has no such location."
        case .locationNameTaken: "Another location of the organisation already has this name."
        case .locationInUse: "Members or pending join requests are at this location; move them first."
        case .lastLocation: "An organisation keeps at least one location."
        case .requestPending: "You already asked to join; an admin has not answered yet."
        case .alreadyAMember: "You are already a member of this organisation."
        case .joinRequestNotFound: "There is no pending join request from this user."
        case .memberNotFound: "The organisation has no such member."
        case .lastAdmin: "The organisation's last admin cannot leave, be removed or stop being an admin; make another member an admin first."
        case .formNotFound: "The organisation has no such review form."
        case .formNameTaken: "Another review form of the organisation already has this name."
        case .questionNotFound: "The form has no such question."
        case .lastQuestion: "A review form keeps at least one question; add another before removing this one."
        case .reviewNotFound: "There is no such review."
        case .newsNotFound: "The organisation has no such news item."
        case .idTaken: "This id is already in use."
        case .limitReached(let limit): "The organisation already has the most \(limit.rawValue) it may have (\(limit.maximum))."
        }
    }

    /// Per-field problems of a validation failure.
    public var fieldErrors: [FieldError] {
        if case .validationFailed(let errors) = self { errors } else { [] }
    }
}
