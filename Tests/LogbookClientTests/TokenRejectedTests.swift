import Foundation
import LogbookClient
import Testing

/// A token the server stops taking ends the client's session: `sessionStates` says why, and
/// the credentials are forgotten.
@Suite("Client: a revoked token", .timeLimit(.minutes(1)))
struct TokenRejectedTests {
    @Test func sessionsEndedFromAnotherDeviceSignThisOneOutOnItsNextRequest() async throws {
        let rig = try await ProxiedServer()
        let phone = try await rig.client().registered("Ann")
        let userId = try #require(phone.credentials?.userId)
        let me = try await phone.run { try await $0.getMe().ok.body.json }
        let laptop = try rig.client()
        try await laptop.signIn(email: me.email, password: "correct horse")
        let states = Collected<SessionState>()
        let listening = Task { for await state in phone.sessionStates { states.append(state) } }
        defer { listening.cancel() }
        try await states.until("the session") { $0 == [.signedIn(userId: userId)] }

        // The laptop ends every session of the account, its own and the phone's.
        _ = try await laptop.run { try await $0.deleteAllSessions().noContent }
        let refusal = await #expect(throws: LogbookProblem.self) { try await phone.run { try await $0.getMe().ok.body.json } }
        #expect(refusal?.status == 401)
        #expect(refusal?.code == "unauthorized")
        try await states.until("the sign-out") { $0.count == 2 }
        #expect(states.last == .signedOut(reason: .tokenRejected(code: "unauthorized")))
        #expect(phone.sessionState == .signedOut(reason: .tokenRejected(code: "unauthorized")))
        #expect(phone.credentials == nil)
    }
}
