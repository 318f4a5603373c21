import Foundation
import LogbookClient
import TestSupport

/// A real `logbook serve` and clients of it, each with its own temporary storage.
final class ClientServer: Sendable {
    let server: ServerProcess
    let directory: String
    let storage = NSTemporaryDirectory() + "client-tests-" + UUID().uuidString

    init(arguments: [String] = []) async throws {
        directory = NSTemporaryDirectory() + "client-server-" + UUID().uuidString
        server = try await ServerProcess(dataDirectory: directory, arguments: arguments, environment: ["LOGBOOK_SECRET_KEY": ""], capturingStandardError: true)
    }

    var url: URL { URL(string: server.address)! }

    /// A client with credentials in memory and, `named`, a storage directory of its own.
    func client(named name: String? = nil, retry: RetryPolicy = .standard) throws -> LogbookClient {
        try LogbookClient(.init(
            serverURL: url, retry: retry,
            storageDirectory: name.map { URL(fileURLWithPath: storage).appendingPathComponent($0) }))
    }

    deinit {
        server.kill()
        try? FileManager.default.removeItem(atPath: directory)
        try? FileManager.default.removeItem(atPath: storage)
    }
}
