import AsyncHTTPClient
import Foundation
import Histogram
import LogbookClient
import NIOCore
import NIOFoundationCompat
import HTTPTypes
import OpenAPIRuntime

/// The client's cost beside a raw HTTP client in one run (docs/benchmarks.md, "The apps'
/// client"): sequential task completions through LogbookClient and through AsyncHTTPClient with
/// a hand-made request, taking turns, `/health` as the reference; then a watched
/// query's re-fetch answered 304 beside the same GET answered 200 in full.
///
///     logbook-client-bench <server URL> [requests of each kind]
@main
struct ClientBench {
    static func main() async throws {
        let arguments = CommandLine.arguments.dropFirst()
        guard let server = arguments.first.flatMap(URL.init(string:)) else {
            FileHandle.standardError.write(Data("usage: logbook-client-bench <server URL> [requests of each kind]\n".utf8))
            exit(64)
        }
        let count = arguments.dropFirst().first.flatMap(Int.init) ?? 2000

        let logbook = try LogbookClient(.init(serverURL: server, retry: .never))
        let email = "bench-\(UUID().uuidString.prefix(8).lowercased())@example.org"
        try await logbook.register(email: email, password: "bench password", displayName: "Bench")
        let house = try await logbook.run { try await $0.createHouse(body: .json(.init(name: "Bench House"))).created.body.json }
        let room = try await logbook.run { try await $0.addRoom(path: .init(houseId: house.houseId), body: .json(.init(name: "Kitchen"))).created.body.json }
        let task = try await logbook.run {
            try await $0.addTask(path: .init(houseId: house.houseId, roomId: room.roomId), body: .json(.init(name: "Dishes", frequencyDays: 1, points: 1))).created.body.json
        }
        let raw = RawClient(server: server, token: logbook.credentials!.token)
        let completion = "/v1/houses/\(house.houseId)/tasks/\(task.taskId)/completions"

        var health = Latencies(), rawCommands = Latencies(), clientCommands = Latencies()
        // A warm-up round of each, not counted: connections, caches, the first decode.
        for _ in 0..<50 {
            _ = try await raw.get("/health")
            _ = try await raw.complete(completion)
            _ = try await logbook.run { try await $0.completeTask(path: .init(houseId: house.houseId, taskId: task.taskId)).created.body.json }
        }
        // One of each in turn, so a slower moment of the machine or a longer log weighs on all
        // three, and raw and client in either order by turns, so neither always follows the other.
        for turn in 0..<count {
            try await health.time { _ = try await raw.get("/health") }
            let rawOne = { try await rawCommands.time { _ = try await raw.complete(completion) } }
            let clientOne = {
                try await clientCommands.time {
                    _ = try await logbook.run { try await $0.completeTask(path: .init(houseId: house.houseId, taskId: task.taskId)).created.body.json }
                }
            }
            if turn.isMultiple(of: 2) {
                try await rawOne()
                try await clientOne()
            } else {
                try await clientOne()
                try await rawOne()
            }
        }

        // The client's own part, without the network or the server: the last completion's answer,
        // given back by a transport that sends nothing.
        let answer = try await raw.completeBytes(completion)
        let canned = try LogbookClient(.init(serverURL: server, credentials: MemoryCredentialStore(logbook.credentials), retry: .never, transport: Canned(body: answer)))
        var clientAlone = Latencies()
        for _ in 0..<count {
            try await clientAlone.time {
                _ = try await canned.run { try await $0.completeTask(path: .init(houseId: house.houseId, taskId: task.taskId)).created.body.json }
            }
        }

        // The house's history, a page of 500 completions: what a watch re-fetches on a notification.
        let history = { (tag: String?) in
            try await logbook.run { try await $0.getHouseHistory(path: .init(houseId: house.houseId), query: .init(limit: 500), headers: .init(ifNoneMatch: tag)) }
        }
        guard case let .ok(first) = try await history(nil), let tag = first.headers.eTag else {
            throw BenchFailure("the history answered no ETag")
        }
        var full = Latencies(), notModified = Latencies()
        for _ in 0..<count {
            try await full.time {
                guard case let .ok(page) = try await history(nil) else { throw BenchFailure("expected 200") }
                _ = try page.body.json
            }
            try await notModified.time {
                guard case .notModified = try await history(tag) else { throw BenchFailure("expected 304") }
            }
        }

        print("requests one at a time, \(count) of each, taking turns; µs per request (p50 · p99)")
        print(health.line("GET /health (raw)"))
        print(rawCommands.line("task done, raw AsyncHTTPClient"))
        print(clientCommands.line("task done, LogbookClient"))
        print(clientAlone.line("task done, the client's own part"))
        print(String(format: "client/raw: p50 %.2f×, p99 %.2f×", clientCommands.p50 / rawCommands.p50, clientCommands.p99 / rawCommands.p99))
        print(full.line("history of 500, 200 and decoded"))
        print(notModified.line("history of 500, 304"))
        print(String(format: "304/200: p50 %.2f×", notModified.p50 / full.p50))
    }
}

struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Latencies in microseconds (HdrHistogram, three significant digits).
struct Latencies {
    private var histogram = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)

    nonisolated(nonsending) mutating func time(_ body: () async throws -> Void) async throws {
        let start = ContinuousClock.now
        try await body()
        let elapsed = ContinuousClock.now - start
        histogram.record(UInt64(elapsed.components.seconds) * 1_000_000 + UInt64(elapsed.components.attoseconds / 1_000_000_000_000))
    }

    var p50: Double { Double(histogram.valueAtPercentile(50)) }
    var p99: Double { Double(histogram.valueAtPercentile(99)) }

    func line(_ name: String) -> String {
        "\(name.padding(toLength: 34, withPad: " ", startingAt: 0)) \(Int(p50)) · \(Int(p99))  (n=\(histogram.totalCount))"
    }
}

/// What an app without LogbookClient would write: AsyncHTTPClient, a request made by hand, the
/// answer's two fields decoded.
struct RawClient {
    let server: URL
    let token: String
    /// The pool LogbookClient's transport uses too.
    let http = HTTPClient.shared

    struct Completed: Decodable {
        let position: Int64
        let pointsAwarded: Int
    }

    func get(_ path: String) async throws -> ByteBuffer {
        let response = try await http.execute(HTTPClientRequest(url: server.absoluteString + path), timeout: .seconds(30))
        return try await response.body.collect(upTo: 1 << 20)
    }

    func complete(_ path: String) async throws -> Completed {
        try JSONDecoder().decode(Completed.self, from: try await completeBytes(path))
    }

    func completeBytes(_ path: String) async throws -> Data {
        var request = HTTPClientRequest(url: server.absoluteString + path)
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Idempotency-Key", value: UUID().uuidString.lowercased())
        let response = try await http.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        guard response.status == .created else { throw BenchFailure("raw completion: \(response.status)") }
        return Data(buffer: body)
    }
}

/// Answers every request with one 201 and its JSON body, sending nothing.
struct Canned: ClientTransport {
    let body: Data

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        (HTTPResponse(status: .created, headerFields: [.contentType: "application/json"]), HTTPBody(self.body))
    }
}
