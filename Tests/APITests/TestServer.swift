import API
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging

/// A runtime on a temporary data directory, and the application built on it.
struct TestServer {
    let directory = NSTemporaryDirectory() + "api-tests-" + UUID().uuidString
    let runtime: LogbookRuntime

    init(configure: (inout LogbookConfiguration) -> Void = { _ in }) throws {
        var configuration = LogbookConfiguration(dataDirectory: directory, port: 0, bcryptCost: 4, unsafeNoSync: true, writeAhead: false)
        configure(&configuration)
        runtime = try LogbookRuntime(configuration: configuration)
    }

    /// Runs `body` against the live application (services included), logging to `logger`.
    func test<Value>(
        logger: Logger = Logger(label: "api-tests"), _ body: @Sendable (any TestClientProtocol) async throws -> Value
    ) async throws -> Value {
        let app = try buildApplication(runtime: runtime, logger: logger)
        return try await app.test(.live, body)
    }

    func remove() {
        runtime.close()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

extension LogbookRuntime {
    /// A runtime on `directory` (bcrypt cost 4, no ambient environment), for tests that stop it
    /// and start another there.
    static func forTests(
        on directory: String, unsafeNoSync: Bool, configure: (inout LogbookConfiguration) -> Void = { _ in }
    ) throws -> LogbookRuntime {
        var configuration = LogbookConfiguration(dataDirectory: directory, port: 0, bcryptCost: 4, unsafeNoSync: unsafeNoSync, writeAhead: false)
        configure(&configuration)
        return try LogbookRuntime(configuration: configuration, environment: [:])
    }

    /// Runs `body` against the live application on this runtime (services included).
    func serveForTests<Value>(
        logger: Logger = Logger(label: "api-tests"), _ body: @Sendable (any TestClientProtocol) async throws -> Value
    ) async throws -> Value {
        try await buildApplication(runtime: self, logger: logger).test(.live, body)
    }
}

extension TestResponse {
    /// The body parsed as a JSON object.
    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any] ?? [:]
    }
}
