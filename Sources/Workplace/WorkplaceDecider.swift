import EventSourcing

/// The workplace rules: who may do what to an organisation, its locations, members, review
/// forms, reviews and news.
///
/// Every command on an existing organisation is checked in one order, so that a refusal says
/// the first thing wrong and an outsider learns no more than they may: the organisation exists
/// (`organisationNotFound`), the actor is an accepted member (`notAMember`; asking to join
/// excepted), an admin where needed (`notAnAdmin`), the entities named exist (`locationNotFound`,
/// `formNotFound`, …), the fields are valid (`validationFailed`, every field error at once),
/// and last the conflicts with the current state. A command that changes nothing produces no
/// events.
public enum WorkplaceDecider: Decider {
    /// What a user asks.
    public typealias Command = WorkplaceCommand
    /// What happened.
    public typealias Event = WorkplaceEvent
    /// The organisation the command is about.
    public typealias State = WorkplaceState
    /// Why a command is refused.
    public typealias Failure = WorkplaceError

    /// No organisations.
    public static let initialState = WorkplaceState()

    /// The organisation's events; when registering also every registration under the same
    /// folded name (its name tag), so that two organisations can never share a name: the
    /// append fails if another registration of that name arrived meanwhile.
    public static func boundary(of command: WorkplaceCommand) -> Boundary {
        let organisation = Boundary.tag(WorkplaceEvent.organisationTag(command.organisationId))
        guard case .registerOrganisation(_, let name, _, _) = command else { return organisation }
        return organisation.union(.tag(WorkplaceEvent.organisationNameTag(name)))
    }

    /// The state changed in place by `event`.
    public static func evolve(_ state: inout WorkplaceState, _ event: WorkplaceEvent) {
        state.apply(event)
    }

    /// The events `command` produces, none when it changes nothing, or the refusal.
    public static func decide(
        _ command: WorkplaceCommand, state: WorkplaceState, metadata: CommandMetadata
    ) throws(WorkplaceError) -> [WorkplaceEvent] {
        let actor = metadata.actor
        switch command {
        case let .registerOrganisation(organisationId, name, locations, creatorName):
            return try registerOrganisation(
                organisationId, name: name, locations: locations, creatorName: creatorName, metadata: metadata, state: state)
        case let .addLocation(organisationId, location):
            return try addLocation(location, admin: admin(actor, of: organisationId, in: state))
        case let .renameLocation(organisationId, locationId, name):
            return try renameLocation(locationId, name: name, admin: admin(actor, of: organisationId, in: state))
        case let .removeLocation(organisationId, locationId):
            return try removeLocation(locationId, admin: admin(actor, of: organisationId, in: state))
        case let .requestToJoin(organisationId, locationId, employeeNumber, name):
            return try requestToJoin(
                organisationId, locationId: locationId, employeeNumber: employeeNumber, name: name, metadata: metadata, state: state)
        case let .acceptJoinRequest(organisationId, userId, correction):
            return try acceptJoinRequest(
                userId, correction: correction, admin: admin(actor, of: organisationId, in: state), metadata: metadata)
        case let .rejectJoinRequest(organisationId, userId):
            return try rejectJoinRequest(userId, admin: admin(actor, of: organisationId, in: state))
        case let .changeMember(organisationId, userId, locationId, isAdmin):
            return try changeMember(
                userId, locationId: locationId, isAdmin: isAdmin, admin: admin(actor, of: organisationId, in: state))
        case let .removeMember(organisationId, userId):
            return try removeMember(userId, actor: member(actor, of: organisationId, in: state))
        case let .createForm(organisationId, formId, name, questions):
            return try createForm(formId, name: name, questions: questions, admin: admin(actor, of: organisationId, in: state))
        case let .renameForm(organisationId, formId, name):
            return try renameForm(formId, name: name, admin: admin(actor, of: organisationId, in: state))
        case let .addQuestion(organisationId, formId, question):
            return try addQuestion(question, to: formId, admin: admin(actor, of: organisationId, in: state))
        case let .removeQuestion(organisationId, formId, questionId):
            return try removeQuestion(questionId, from: formId, admin: admin(actor, of: organisationId, in: state))
        case let .reorderQuestions(organisationId, formId, questionIds):
            return try reorderQuestions(formId, questionIds: questionIds, admin: admin(actor, of: organisationId, in: state))
        case let .deleteForm(organisationId, formId):
            return try deleteForm(formId, admin: admin(actor, of: organisationId, in: state))
        case let .submitReview(review):
            return try submitReview(review, admin: admin(actor, of: review.organisationId, in: state), metadata: metadata)
        case let .postNews(organisationId, newsId, locationId, title, text, imageBlobId):
            return try postNews(
                newsId, locationId: locationId, title: title, text: text, imageBlobId: imageBlobId,
                admin: admin(actor, of: organisationId, in: state), metadata: metadata)
        case let .deleteNews(organisationId, newsId):
            return try deleteNews(newsId, admin: admin(actor, of: organisationId, in: state))
        }
    }

    /// An organisation as seen by the accepted member who acts on it.
    struct Acting {
        /// The organisation.
        let organisation: WorkplaceState.Organisation
        /// The actor, an accepted member.
        let member: WorkplaceState.Member

        /// The organisation's id.
        var organisationId: String { organisation.organisationId }
        /// The actor's user id.
        var actorId: String { member.userId }
    }

    /// The organisation `organisationId` if it exists (`organisationNotFound`).
    static func organisation(_ organisationId: String, in state: WorkplaceState)
        throws(WorkplaceError) -> WorkplaceState.Organisation
    {
        guard let organisation = state.organisations[organisationId] else { throw .organisationNotFound }
        return organisation
    }

    /// The organisation with `actor` as an accepted member (`notAMember`).
    static func member(_ actor: String, of organisationId: String, in state: WorkplaceState) throws(WorkplaceError) -> Acting {
        let organisation = try organisation(organisationId, in: state)
        guard let member = organisation.members[actor] else { throw .notAMember }
        return Acting(organisation: organisation, member: member)
    }

    /// The organisation with `actor` as an accepted admin (`notAnAdmin`).
    static func admin(_ actor: String, of organisationId: String, in state: WorkplaceState) throws(WorkplaceError) -> Acting {
        let acting = try member(actor, of: organisationId, in: state)
        guard acting.member.isAdmin else { throw .notAnAdmin }
        return acting
    }
}
