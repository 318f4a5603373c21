import Foundation
import Projections

/// The account routes of SPEC §4: each decodes its input, hands it to `AccountsService`, and
/// encodes what comes back.
extension LogbookAPI {
    var accountsService: AccountsService { AccountsService(runtime: runtime) }

    func createAccount(_ input: Operations.CreateAccount.Input) async throws -> Operations.CreateAccount.Output {
        let body = switch input.body { case .json(let body): body }
        let session = try await accountsService.register(body)
        return .created(.init(body: .json(Components.Schemas.SessionCreated(session))))
    }

    func createSession(_ input: Operations.CreateSession.Input) async throws -> Operations.CreateSession.Output {
        let body = switch input.body { case .json(let body): body }
        let session = try await accountsService.login(email: body.email, password: body.password)
        return .created(.init(body: .json(Components.Schemas.SessionCreated(session))))
    }

    func deleteCurrentSession(_ input: Operations.DeleteCurrentSession.Input) async throws -> Operations.DeleteCurrentSession.Output {
        try await accountsService.logout()
        return .noContent(.init())
    }

    func deleteAllSessions(_ input: Operations.DeleteAllSessions.Input) async throws -> Operations.DeleteAllSessions.Output {
        try await accountsService.endAllSessions()
        return .noContent(.init())
    }

    func requestEmailVerification(_ input: Operations.RequestEmailVerification.Input) async throws -> Operations.RequestEmailVerification.Output {
        let session = try authenticate()
        try await accountsService.requestEmailVerification(of: session)
        return .accepted(.init())
    }

    func verifyEmail(_ input: Operations.VerifyEmail.Input) async throws -> Operations.VerifyEmail.Output {
        let session = try authenticate()
        try await accountsService.verifyEmail(of: session, token: input.path.token)
        return .noContent(.init())
    }

    func getMe(_ input: Operations.GetMe.Input) async throws -> Operations.GetMe.Output {
        let session = try authenticate()
        let asOf = projectedPosition
        let profile = try accountsService.profile(of: session)
        let eTag = try await eTag(of: EntityStream.account(session.userId), asOf: asOf)
        return .ok(.init(headers: .init(eTag: eTag), body: .json(Components.Schemas.Profile(profile))))
    }

    func updateMe(_ input: Operations.UpdateMe.Input) async throws -> Operations.UpdateMe.Output {
        let session = try authenticate()
        let body = switch input.body { case .json(let body): body }
        let profile = try await accountsService.updateProfile(of: session, body)
        return .ok(.init(body: .json(Components.Schemas.Profile(profile))))
    }

    func changePassword(_ input: Operations.ChangePassword.Input) async throws -> Operations.ChangePassword.Output {
        let session = try authenticate()
        let body = switch input.body { case .json(let body): body }
        try await accountsService.changePassword(of: session, body)
        return .noContent(.init())
    }

    func eraseMe(_ input: Operations.EraseMe.Input) async throws -> Operations.EraseMe.Output {
        let session = try authenticate()
        let body = switch input.body { case .json(let body): body }
        try await accountsService.erase(session, password: body.password)
        return .noContent(.init())
    }

    func requestPasswordReset(_ input: Operations.RequestPasswordReset.Input) async throws -> Operations.RequestPasswordReset.Output {
        let body = switch input.body { case .json(let body): body }
        try await accountsService.requestPasswordReset(email: body.email)
        return .accepted(.init())
    }

    func redeemPasswordReset(_ input: Operations.RedeemPasswordReset.Input) async throws -> Operations.RedeemPasswordReset.Output {
        let body = switch input.body { case .json(let body): body }
        try await accountsService.redeemPasswordReset(token: input.path.token, body)
        return .noContent(.init())
    }

    func getMyActivity(_ input: Operations.GetMyActivity.Input) async throws -> Operations.GetMyActivity.Output {
        let session = try authenticate()
        let page = try await accountsService.activity(of: session, limit: input.query.limit, cursor: input.query.cursor)
        return .ok(.init(body: .json(Components.Schemas.ActivityPage(page))))
    }
}
