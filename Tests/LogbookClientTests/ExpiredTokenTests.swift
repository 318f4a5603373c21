import class API.LogbookRuntime
import func API.buildApplication
import struct API.LogbookConfiguration
import Foundation
import HummingbirdTesting
import LogbookClient
import Logging
import Synchronization
import Testing

/// A token past its expiry signs the client out. The one test of the client against the server
/// in process: only there is the server's clock the test's (`LogbookConfiguration.clock`).
@Suite("Client: an expired token", .timeLimit(.minutes(1)))
struct ExpiredTokenTests {
    /// The server's time: now, until the test moves it on.
    final class ServerClock: Sendable {
        let now = Mutex(Date())
    }

    @Test func aTokenPastItsExpirySignsTheClientOut() async throws {
        let directory = NSTemporaryDirectory() + "client-expiry-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let clock = ServerClock()
        let configuration = LogbookConfiguration(dataDirectory: directory, port: 0, bcryptCost: 4, unsafeNoSync: true, writeAhead: false) { clock.now.withLock { $0 } }
        let runtime = try LogbookRuntime(configuration: configuration, environment: [:])
        defer { runtime.close() }
        let app = try buildApplication(runtime: runtime, logger: Logger(label: "client-tests"))
        try await app.test(.live) { server in
            let ann = try LogbookClient(.init(serverURL: URL(string: "http://127.0.0.1:\(try #require(server.port))")!))
            let credentials = try await ann.registered("Ann").credentials!
            _ = try await ann.run { try await $0.getMe().ok.body.json }
            let states = Collected<SessionState>()
            let listening = Task { for await state in ann.sessionStates { states.append(state) } }
            defer { listening.cancel() }
            try await states.until("the session") { $0.count == 1 }

            clock.now.withLock { $0 = credentials.expiresAt + 1 }
            let refusal = await #expect(throws: LogbookProblem.self) { try await ann.run { try await $0.getMe().ok.body.json } }
            #expect(refusal?.status == 401)
            try await states.until("the sign-out") { $0.count == 2 }
            #expect(states.last == .signedOut(reason: .tokenRejected(code: "unauthorized")))
            #expect(ann.credentials == nil)
        }
    }
}
