import API
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore

/// The household app over HTTP, on a server wired as `logbook serve` wires it (the data
/// directory's own log in the write-ahead mode, syncing, every read model): a task done again and
/// again, then the reads its members make. A command's window includes its projection's apply,
/// since the server answers only once the read models hold its events. The counts include the
/// in-process test client's own work, the same for every request.
struct HouseholdHTTPScenario {
    let commandsWarmingUp = 20
    let commandsMeasured = 300
    let readsWarmingUp = 20
    let readsMeasured = 300

    /// The measured GETs: window name and path, with `{house}` and `{room}` filled in.
    static let reads = [
        ("http.get.scoreboard", "/v1/houses/{house}/scoreboard"),
        ("http.get.tasks", "/v1/houses/{house}/rooms/{room}/tasks"),
        ("http.get.history", "/v1/houses/{house}/history?limit=20"),
    ]

    func run(in directory: String) async throws -> [String: WindowCounts] {
        var configuration = LogbookConfiguration(dataDirectory: directory, port: 0, bcryptCost: 4)
        configuration.writeAhead = true
        let runtime = try LogbookRuntime(configuration: configuration, environment: [:])
        defer { runtime.close() }
        var logger = Logger(label: "logbook-budgets")
        logger.logLevel = .critical
        let app = try buildApplication(runtime: runtime, logger: logger)
        return try await app.test(.live) { client in try await measure(client) }
    }

    private func measure(_ client: some TestClientProtocol) async throws -> [String: WindowCounts] {
        let ann = try await client.json(.post, "/v1/accounts", ["email": "ann@example.org", "password": "correct horse", "displayName": "Ann"])
        let token = try ann.string("token")
        let house = try await client.json(.post, "/v1/houses", ["name": "Canal House"], token: token)
        let houseID = try house.string("houseId")
        let room = try await client.json(.post, "/v1/houses/\(houseID)/rooms", ["name": "Kitchen"], token: token)
        let roomID = try room.string("roomId")
        let task = try await client.json(.post, "/v1/houses/\(houseID)/rooms/\(roomID)/tasks", ["name": "Dishes", "frequencyDays": 1, "points": 5], token: token)
        let completions = "/v1/houses/\(houseID)/tasks/\(try task.string("taskId"))/completions"

        var windows: [String: WindowCounts] = [:]
        var done = 0
        func complete(_ count: Int) async throws {
            for _ in 0..<count {
                try await client.expect(.created, .post, completions, token: token)
                done += 1
            }
        }
        try await complete(commandsWarmingUp)
        let before = done
        windows["http.post.taskDone"] = try await MeasuredWindow.measure("http.post.taskDone", units: { done - before }, commits: { 0 }) {
            try await complete(commandsMeasured)
        }
        for (window, template) in Self.reads {
            let path = template.replacingOccurrences(of: "{house}", with: houseID).replacingOccurrences(of: "{room}", with: roomID)
            for _ in 0..<readsWarmingUp { try await client.expect(.ok, .get, path, token: token) }
            windows[window] = try await MeasuredWindow.measure(window, units: { readsMeasured }, commits: { 0 }) {
                for _ in 0..<readsMeasured { try await client.expect(.ok, .get, path, token: token) }
            }
        }
        return windows
    }
}

/// A request the scenario could not make as it expected.
struct ScenarioFailure: Error, CustomStringConvertible {
    let description: String
}

extension TestClientProtocol {
    fileprivate func request(_ method: HTTPRequest.Method, _ path: String, _ body: [String: Any]?, token: String?) async throws -> TestResponse {
        var headers: HTTPFields = [:]
        var buffer: ByteBuffer?
        if let body {
            buffer = ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body))
            headers[.contentType] = "application/json"
        }
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await execute(uri: path, method: method, headers: headers, body: buffer)
    }

    /// The JSON object a 2xx answered.
    fileprivate func json(_ method: HTTPRequest.Method, _ path: String, _ body: [String: Any], token: String? = nil) async throws -> [String: Any] {
        let response = try await request(method, path, body, token: token)
        guard (200..<300).contains(response.status.code),
              let object = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
        else { throw ScenarioFailure(description: "\(method) \(path): \(response.status) \(String(buffer: response.body))") }
        return object
    }

    fileprivate func expect(_ status: HTTPResponse.Status, _ method: HTTPRequest.Method, _ path: String, token: String) async throws {
        let response = try await request(method, path, nil, token: token)
        guard response.status == status else {
            throw ScenarioFailure(description: "\(method) \(path): \(response.status), not \(status): \(String(buffer: response.body))")
        }
    }
}

extension [String: Any] {
    fileprivate func string(_ key: String) throws -> String {
        guard let value = self[key] as? String else { throw ScenarioFailure(description: "no \(key) in \(self)") }
        return value
    }
}
