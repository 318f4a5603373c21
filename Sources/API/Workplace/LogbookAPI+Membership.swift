import Foundation
import Projections
import Workplace

/// The workplace's membership routes: asking to join, the admins' answers, and the members.
/// The lists hold employee numbers, so they are for admins only (`WorkplaceAccess.requireAdmin`).
extension LogbookAPI {
    func requestToJoin(_ input: Operations.RequestToJoin.Input) async throws -> Operations.RequestToJoin.Output {
        let caller = try authenticate()
        guard case let .json(body) = input.body else { throw Routes.unsupportedBody }
        let command = WorkplaceCommand.requestToJoin(
            organisationId: input.path.organisationId, locationId: body.locationId, employeeNumber: body.employeeNumber, name: body.name)
        let outcome = try await commands.run(WorkplaceDecider.self, command, actor: caller.userId, entity: EntityStream.organisation(input.path.organisationId))
        return .created(.init(body: .json(outcome.result)))
    }

    func listJoinRequests(_ input: Operations.ListJoinRequests.Input) async throws -> Operations.ListJoinRequests.Output {
        let caller = try authenticate()
        let (organisation, viewer) = try workplaceViewer(caller.userId, of: input.path.organisationId)
        try WorkplaceRoutes.access { () throws(WorkplaceError) in try WorkplaceAccess.requireAdmin(viewer) }
        let requests = try runtime.workplace.pendingRequests(of: organisation.organisationId)
        return .ok(.init(body: .json(.init(items: requests.map(WorkplaceRoutes.joinRequest)))))
    }

    func acceptJoinRequest(_ input: Operations.AcceptJoinRequest.Input) async throws -> Operations.AcceptJoinRequest.Output {
        let caller = try authenticate()
        // The body is optional: without one nothing is corrected.
        var correction = WorkplaceCommand.JoinCorrection()
        if let body = input.body {
            guard case let .json(sent) = body else { throw Routes.unsupportedBody }
            correction = .init(name: sent.name, employeeNumber: sent.employeeNumber, locationId: sent.locationId)
        }
        let command = WorkplaceCommand.acceptJoinRequest(
            organisationId: input.path.organisationId, userId: input.path.userId, correction: correction)
        let outcome = try await commands.run(WorkplaceDecider.self, command, actor: caller.userId, entity: EntityStream.organisation(input.path.organisationId))
        return .ok(.init(body: .json(outcome.result)))
    }

    func rejectJoinRequest(_ input: Operations.RejectJoinRequest.Input) async throws -> Operations.RejectJoinRequest.Output {
        let caller = try authenticate()
        let command = WorkplaceCommand.rejectJoinRequest(organisationId: input.path.organisationId, userId: input.path.userId)
        _ = try await commands.run(WorkplaceDecider.self, command, actor: caller.userId, entity: EntityStream.organisation(input.path.organisationId))
        return .noContent(.init())
    }

    func listMembers(_ input: Operations.ListMembers.Input) async throws -> Operations.ListMembers.Output {
        let caller = try authenticate()
        let (organisation, viewer) = try workplaceViewer(caller.userId, of: input.path.organisationId)
        try WorkplaceRoutes.access { () throws(WorkplaceError) in try WorkplaceAccess.requireAdmin(viewer) }
        let members = try runtime.workplace.members(of: organisation.organisationId)
        return .ok(.init(body: .json(.init(items: members.map(WorkplaceRoutes.member)))))
    }

    func changeMember(_ input: Operations.ChangeMember.Input) async throws -> Operations.ChangeMember.Output {
        let caller = try authenticate()
        guard case let .json(body) = input.body else { throw Routes.unsupportedBody }
        let command = WorkplaceCommand.changeMember(
            organisationId: input.path.organisationId, userId: input.path.userId, locationId: body.locationId, admin: body.admin)
        let outcome = try await commands.run(WorkplaceDecider.self, command, actor: caller.userId, entity: EntityStream.organisation(input.path.organisationId))
        return .ok(.init(body: .json(outcome.result)))
    }

    func removeMember(_ input: Operations.RemoveMember.Input) async throws -> Operations.RemoveMember.Output {
        let caller = try authenticate()
        let command = WorkplaceCommand.removeMember(organisationId: input.path.organisationId, userId: input.path.userId)
        _ = try await commands.run(WorkplaceDecider.self, command, actor: caller.userId, entity: EntityStream.organisation(input.path.organisationId))
        return .noContent(.init())
    }
}
