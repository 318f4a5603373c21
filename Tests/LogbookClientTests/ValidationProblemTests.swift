import Foundation
import LogbookClient
import Testing

/// A refusal reaches the app as the server's problem, typed: status, stable code and, for a
/// validation failure, every field at fault.
@Suite("Client: a validation problem", .timeLimit(.minutes(1)))
struct ValidationProblemTests {
    @Test func aRegistrationWithABadAddressAndAShortPasswordIsA422NamingBothFields() async throws {
        let server = try await ClientServer()
        let client = try server.client()
        let problem = await #expect(throws: LogbookProblem.self) {
            try await client.register(email: "ann.example.org", password: "short", displayName: "Ann")
        }
        #expect(problem?.status == 422)
        #expect(problem?.code == "validation_failed")
        #expect(Set(problem?.errors.map(\.field) ?? []) == ["email", "password"])
        #expect(problem?.errors.allSatisfy { !$0.message.isEmpty } == true)
        #expect(client.sessionState == .signedOut(reason: nil))
    }
}
