import Foundation
import Projections
import Workplace

/// The workplace's organisation routes (SPEC §4 workplace): registering, the public directory,
/// one organisation with the caller's standing, and its locations. Commands go through
/// `CommandRunner`, so they are idempotent by `Idempotency-Key` and answered only once the read
/// models include them; the decider refuses what the caller may not do.
extension LogbookAPI {
    func registerOrganisation(_ input: Operations.RegisterOrganisation.Input) async throws -> Operations.RegisterOrganisation.Output {
        let caller = try authenticate()
        guard case let .json(body) = input.body else { throw Routes.unsupportedBody }
        let command = WorkplaceCommand.registerOrganisation(
            organisationId: Routes.newID(), name: body.name,
            locations: body.locations.map { .init(locationId: Routes.newID(), name: $0.name) },
            creatorName: try displayName(of: caller.userId))
        let outcome = try await commands.run(WorkplaceDecider.self, command, actor: caller.userId)
        // From the events, not from `command`: a retried request answers with what the first made.
        guard case let .organisationRegistered(registered)? = outcome.events.first else { throw Problem.internalError }
        return .created(.init(body: .json(.init(
            organisationId: registered.organisationId,
            locations: registered.locations.map { .init(locationId: $0.locationId, name: $0.name) },
            position: outcome.responsePosition, events: outcome.eventTypes))))
    }

    /// Public: the directory is how a user finds an organisation to join, so it needs no token.
    func listOrganisations(_ input: Operations.ListOrganisations.Input) async throws -> Operations.ListOrganisations.Output {
        let page = try ProblemMapping.listQuery {
            try runtime.workplace.directory(query: input.query.query, limit: input.query.limit, cursor: input.query.cursor)
        }
        return .ok(.init(body: .json(.init(
            items: page.items.map { .init(organisationId: $0.organisationId, name: $0.name) }, next: page.next))))
    }

    /// Shown to anyone signed in, members or not: a user picks the location to ask to join at
    /// from it, and sees their own pending request there. Nothing else of the organisation
    /// (members, forms, reviews, news) is in it.
    func getOrganisation(_ input: Operations.GetOrganisation.Input) async throws -> Operations.GetOrganisation.Output {
        let caller = try authenticate()
        let asOf = projectedPosition
        let organisation = try existingOrganisation(input.path.organisationId)
        let membership = try runtime.workplace.membership(of: caller.userId, in: organisation.organisationId)
        let eTag = try await eTag(of: EntityStream.organisation(organisation.organisationId), asOf: asOf)
        return .ok(.init(headers: .init(eTag: eTag), body: .json(WorkplaceRoutes.organisation(organisation, membership))))
    }

    func addLocation(_ input: Operations.AddLocation.Input) async throws -> Operations.AddLocation.Output {
        let caller = try authenticate()
        guard case let .json(body) = input.body else { throw Routes.unsupportedBody }
        let command = WorkplaceCommand.addLocation(
            organisationId: input.path.organisationId, location: .init(locationId: Routes.newID(), name: body.name))
        let outcome = try await commands.run(WorkplaceDecider.self, command, actor: caller.userId, entity: EntityStream.organisation(input.path.organisationId))
        guard case let .locationAdded(added)? = outcome.events.first else { throw Problem.internalError }
        return .created(.init(body: .json(.init(
            locationId: added.location.locationId, position: outcome.responsePosition, events: outcome.eventTypes))))
    }

    func renameLocation(_ input: Operations.RenameLocation.Input) async throws -> Operations.RenameLocation.Output {
        let caller = try authenticate()
        guard case let .json(body) = input.body else { throw Routes.unsupportedBody }
        let command = WorkplaceCommand.renameLocation(
            organisationId: input.path.organisationId, locationId: input.path.locationId, name: body.name)
        let outcome = try await commands.run(WorkplaceDecider.self, command, actor: caller.userId, entity: EntityStream.organisation(input.path.organisationId))
        return .ok(.init(body: .json(outcome.result)))
    }

    func removeLocation(_ input: Operations.RemoveLocation.Input) async throws -> Operations.RemoveLocation.Output {
        let caller = try authenticate()
        let command = WorkplaceCommand.removeLocation(organisationId: input.path.organisationId, locationId: input.path.locationId)
        _ = try await commands.run(WorkplaceDecider.self, command, actor: caller.userId, entity: EntityStream.organisation(input.path.organisationId))
        return .noContent(.init())
    }

    // MARK: - Helpers

    /// Organisation `organisationId`; 404 `organisation_not_found` when there is none.
    func existingOrganisation(_ organisationId: String) throws -> OrganisationView {
        guard let organisation = try runtime.workplace.organisation(id: organisationId) else {
            throw ProblemMapping.problem(for: WorkplaceError.organisationNotFound)
        }
        return organisation
    }

    /// The caller as organisation `organisationId` sees them, with the organisation: 404
    /// `organisation_not_found` for an unknown one. Every query of an organisation's insides
    /// starts here and then applies a `WorkplaceAccess` rule to the viewer.
    func workplaceViewer(_ userId: String, of organisationId: String) throws -> (OrganisationView, WorkplaceViewer) {
        let organisation = try existingOrganisation(organisationId)
        let membership = try runtime.workplace.membership(of: userId, in: organisationId)
        return (organisation, WorkplaceRoutes.viewer(userId, membership))
    }
}
