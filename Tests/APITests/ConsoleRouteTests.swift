import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import API

/// `/admin` serves the operator console's own files, with headers that let the page run only
/// them and talk only to this server; `/v1/admin/stats` reports the log as `logbook-admin stats`.
@Suite("Operator console: files and stats", .timeLimit(.minutes(2)))
struct ConsoleRouteTests {
    @Test func thePageAndItsModulesAreServedWithTheirTypesAndAStrictPolicy() async throws {
        let server = try AdminFixture.server()
        defer { server.remove() }
        try await server.test { client in
            let page = try await client.send(.get, "/admin")
            #expect(page.status == .ok && page.headers[.contentType]?.hasPrefix("text/html") == true, "\(page.headers)")
            #expect(page.text.contains("<title>Logbook operator console</title>"))
            #expect(page.headers[.contentSecurityPolicy] == ConsoleFiles.contentSecurityPolicy)
            #expect(page.headers[.xContentTypeOptions] == "nosniff" && page.headers[.cacheControl] == "no-cache")
            #expect(page.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
            // Every module the page loads, and every one those import, is served as JavaScript.
            var modules = ["console.js"]
            var seen: Set<String> = []
            while let module = modules.popLast() {
                guard seen.insert(module).inserted else { continue }
                let reply = try await client.send(.get, "/admin/\(module)")
                #expect(reply.status == .ok && reply.headers[.contentType]?.hasPrefix("text/javascript") == true, "\(module): \(reply.status)")
                #expect(reply.headers[.contentSecurityPolicy] == ConsoleFiles.contentSecurityPolicy)
                modules += Self.imports(of: reply.text)
            }
            #expect(seen.count >= 8, "the console's modules: \(seen.sorted())")
            let css = try await client.send(.get, "/admin/console.css")
            #expect(css.status == .ok && css.headers[.contentType]?.hasPrefix("text/css") == true)
            // Nothing but its own files: no path is joined to the request's text.
            for other in ["nope.js", "..%2FPackage.swift", "%2E%2E%2Fopenapi.yaml", "openapi.yaml", "console.js%00.css", String(repeating: "a", count: 300)] {
                let reply = try await client.send(.get, "/admin/\(other)")
                #expect(reply.status == .notFound && reply.code == "not_found" && reply.isProblem, "\(other.prefix(30)): \(reply.text)")
            }
        }
    }

    /// The names after `from "./…"` in a module's imports.
    private static func imports(of source: String) -> [String] {
        source.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("import "), let start = line.range(of: "from \"./")?.upperBound,
                  let end = line[start...].firstIndex(of: "\"") else { return nil }
            return String(line[start..<end])
        }
    }

    @Test func statsCountTheLogAsItIs() async throws {
        let server = try AdminFixture.server()
        defer { server.remove() }
        try await server.test { client in
            let ann = try await client.register("ann@example.org").token
            let house = try await client.send(.post, "/v1/houses", json: ["name": "Canal House"], token: ann)
            #expect(house.status == .created)
            let stats = try await client.admin("/v1/admin/stats")
            #expect(stats.status == .ok, "\(stats.text)")
            let head = try server.runtime.log.lmdb.headPosition()
            #expect(stats.json["events"] as? Int == Int(head) && stats.json["lastPosition"] as? Int == Int(head))
            let byType = try #require(stats.json["eventsByType"] as? [[String: Any]])
            #expect(byType.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } == Int(head), "every event counted once by type")
            #expect(byType.contains { $0["name"] as? String == "household.houseCreated" && $0["count"] as? Int == 1 })
            let counts = byType.compactMap { $0["count"] as? Int }
            #expect(counts == counts.sorted(by: >), "most first")
            let byCategory = try #require(stats.json["eventsByCategory"] as? [[String: Any]])
            #expect(byCategory.contains { $0["name"] as? String == "house" && $0["count"] as? Int == 1 })
            #expect((stats.json["streams"] as? Int ?? 0) >= 2 && (stats.json["fileSizeBytes"] as? Int ?? 0) > 0)
            #expect((stats.json["readersMax"] as? Int ?? 0) > 0 && (stats.json["mapSizeBytes"] as? Int ?? 0) >= (stats.json["usedBytes"] as? Int ?? 0))
        }
    }
}
