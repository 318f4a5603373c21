@testable import API
import Foundation
import TestSupport
import Testing

/// SPEC §3a: the servers of one log share `LOGBOOK_SECRET_KEY`. A server with another key
/// refuses to start, naming the variable and printing no key, where it used to start and then
/// answer valid logins 401 or 503 for ever (issue 48, item 8); with the same key it starts.
@Suite("Servers on one log share the secret key", .timeLimit(.minutes(5)))
struct SharedLogSecretCheckTests {
    static let other = Data((0..<32).map { UInt8(255 - $0) }).base64EncodedString()

    /// `logbook serve` on `directory` with `arguments` and the secret `secret` ("": none, so
    /// the data directory's own), expected to refuse to start: what it printed.
    static func refusedStart(_ directory: String, arguments: [String] = [], secret: String) async throws -> String {
        let environment = ProcessInfo.processInfo.environment.merging(["LOGBOOK_BCRYPT_COST": "4", "LOGBOOK_SECRET_KEY": secret]) { $1 }
        let run = try await ChildProcess.output(
            of: try ServerBinary.url(), arguments: ["serve", "--data-dir", directory, "--port", "0"] + arguments,
            environment: environment, killingAfter: .seconds(60))
        #expect(run.status != 0, "refused to start: \(run.output)")
        #expect(!run.output.contains("logbook listening"), "\(run.output)")
        return run.output
    }

    @Test(.enabled(if: PrivatePostgres.isInstalled || PrivatePostgres.isRequired))
    func aSecondServerWithAnotherKeyRefusesToStartOnTheSharedLogAndWithTheSameKeyStarts() async throws {
        let url = try await PrivatePostgres.newDatabase()
        let first = TemporaryDataDirectory(), second = TemporaryDataDirectory()
        let a = try await SharedLogServerTests.start(first.path, log: url)
        let ann = try await a.client.register("ann@example.org", displayName: "Ann")

        let said = try await Self.refusedStart(second.path, arguments: ["--event-store", url], secret: Self.other)
        #expect(said.contains("LOGBOOK_SECRET_KEY is not the secret key the log"), "\(said)")
        #expect(!said.contains(Self.other) && !said.contains(SharedLogServerTests.secret), "no key printed: \(said)")
        // Without the variable, its own generated secret.key is another key too.
        let generated = try await Self.refusedStart(second.path, arguments: ["--event-store", url], secret: "")
        #expect(generated.contains("secret.key (LOGBOOK_SECRET_KEY is not set) is not the secret key the log"), "\(generated)")

        let b = try await SharedLogServerTests.start(second.path, log: url)
        let onB = try await SharedLogServerTests.eventually({ try await b.client.send("POST", "/v1/sessions", json: ["email": "ann@example.org", "password": "correct horse"]) }) { $0.status == 201 }
        #expect(onB.status == 201, "a login on the second server: \(onB.text)")
        #expect(try await a.client.send("GET", "/v1/me", token: ann.token).status == 200)
        let stoppedA = try await a.terminate(), stoppedB = try await b.terminate()
        #expect(stoppedA && stoppedB)
    }

    /// A log written before the check has no value: the first server of this release stores
    /// its own, and from then on another key is refused.
    @Test(.enabled(if: PrivatePostgres.isInstalled || PrivatePostgres.isRequired))
    func aLogWithoutACheckValueTakesTheFirstServersKey() async throws {
        let url = try await PrivatePostgres.newDatabase()
        let first = TemporaryDataDirectory(), second = TemporaryDataDirectory()
        var a = try await SharedLogServerTests.start(first.path, log: url)
        _ = try await a.client.register("ann@example.org", displayName: "Ann")
        #expect(try await a.terminate())
        try await PrivatePostgres.execute(on: url, "DELETE FROM logbook_secret_check")

        a = try await SharedLogServerTests.start(first.path, log: url)
        let said = try await Self.refusedStart(second.path, arguments: ["--event-store", url], secret: Self.other)
        #expect(said.contains("LOGBOOK_SECRET_KEY"), "\(said)")
        #expect(try await a.terminate())
    }

    /// A data directory's own log: served with one key, it refuses another, and its own
    /// generated key when the variable is dropped; with the first key it starts again.
    @Test func aDataDirectorysLogRefusesAKeyOtherThanTheOneItWasServedWith() async throws {
        let directory = TemporaryDataDirectory()
        let secret = SharedLogServerTests.secret
        var server = try await ServerProcess(dataDirectory: directory.path, environment: ["LOGBOOK_SECRET_KEY": secret])
        _ = try await server.client.register("ann@example.org", displayName: "Ann")
        #expect(try await server.terminate())

        let said = try await Self.refusedStart(directory.path, secret: Self.other)
        #expect(said.contains("LOGBOOK_SECRET_KEY is not the secret key the log \(directory.path)/log"), "\(said)")
        #expect(!said.contains(Self.other) && !said.contains(secret), "no key printed: \(said)")
        let generated = try await Self.refusedStart(directory.path, secret: "")
        #expect(generated.contains("(LOGBOOK_SECRET_KEY is not set)"), "\(generated)")

        server = try await ServerProcess(dataDirectory: directory.path, environment: ["LOGBOOK_SECRET_KEY": secret])
        _ = try await server.client.login("ann@example.org", "correct horse")  // requires 201
        #expect(try await server.terminate())
    }
}
