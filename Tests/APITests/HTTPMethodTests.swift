import API
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// HEAD, wrong methods and oversized headers: the HTTP edge answers each as the contract says,
/// with problem+json, never with a bare status from the router or the parser.
@Suite("HTTP methods and header limits", .timeLimit(.minutes(3)))
struct HTTPMethodTests {
    /// Every path of the shipped contract with its declared methods, `{param}`s filled with a
    /// made-up UUID.
    static func contractRoutes() throws -> [(path: String, methods: Set<String>)] {
        let document = try #require(try JSONSerialization.jsonObject(with: OpenAPIDocument.data()) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        let filler = UUID().uuidString.lowercased()
        return paths.map { path, item in
            let concrete = path.replacingOccurrences(of: #"\{[^}]+\}"#, with: filler, options: .regularExpression)
            let methods = Set(item.keys.filter { $0 != "parameters" }.map { $0.uppercased() })
            return (concrete, methods)
        }.sorted { $0.path < $1.path }
    }

    @Test func headOnHealthIsTheGetWithoutItsBody() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let get = try await client.execute(uri: "/health", method: .get)
            let head = try await client.execute(uri: "/health", method: .head)
            #expect(get.status == .ok && head.status == .ok)
            #expect(head.body.readableBytes == 0, "HEAD sent a body")
            #expect(get.body.readableBytes > 0)
            #expect(head.headers[.contentLength] == String(get.body.readableBytes), "HEAD's Content-Length is the GET body's")
            #expect(head.headers[.contentType] == get.headers[.contentType])
        }
    }

    /// HEAD on every GET route of the contract: the GET's status and headers, no body; here as a
    /// caller without a token (401 with its challenge) and, where it needs none, 200.
    @Test func headAnswersEveryGetRouteLikeTheGet() async throws {
        let server = try TestServer { $0.operatorToken = "operator" }
        defer { server.remove() }
        let routes = try Self.contractRoutes().filter { $0.methods.contains("GET") }
        #expect(routes.count >= 15, "the contract's GET routes: \(routes.map(\.path))")
        try await server.test { client in
            for route in routes {
                let get = try await client.execute(uri: route.path, method: .get)
                let head = try await client.execute(uri: route.path, method: .head)
                #expect(head.status == get.status, "HEAD \(route.path): \(head.status), GET: \(get.status)")
                #expect(head.body.readableBytes == 0, "HEAD \(route.path) sent a body")
                #expect(head.headers[.contentType] == get.headers[.contentType], "HEAD \(route.path)")
                #expect(head.headers[.wwwAuthenticate] == get.headers[.wwwAuthenticate], "HEAD \(route.path)")
                #expect(head.headers[.contentLength] == String(get.body.readableBytes), "HEAD \(route.path)")
            }
        }
    }

    /// Every method a contract path does not declare is 405 with an `Allow` header listing exactly
    /// those it does (HEAD wherever GET is), as problem+json; never the router's 404.
    @Test func aMethodAPathDoesNotServeIs405WithAllow() async throws {
        let server = try TestServer()
        defer { server.remove() }
        let routes = try Self.contractRoutes()
        try await server.test { client in
            var checked = 0
            for route in routes {
                let allowed = route.methods.union(route.methods.contains("GET") ? ["HEAD"] : [])
                for method in ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] where !allowed.contains(method) {
                    let response = try await client.execute(uri: route.path, method: HTTPRequest.Method(method)!)
                    #expect(response.status == .methodNotAllowed, "\(method) \(route.path): \(response.status)")
                    #expect(response.headers[.contentType] == "application/problem+json", "\(method) \(route.path)")
                    #expect(response.json["code"] as? String == "method_not_allowed", "\(method) \(route.path)")
                    let allow = Set((response.headers[.allow] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
                    #expect(allow == allowed, "\(method) \(route.path): Allow \(allow), declared \(allowed)")
                    checked += 1
                }
            }
            #expect(checked >= 100, "only \(checked) wrong methods tried")
        }
    }

    /// A literal path segment wins over a template, as in the router: `/v1/houses/join` serves only
    /// POST, though `/v1/houses/{houseId}` serves GET.
    @Test func theAllowOfALiteralPathIsItsOwn() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let join = try await client.execute(uri: "/v1/houses/join", method: .get)
            #expect(join.status == .methodNotAllowed)
            #expect(join.headers[.allow] == "POST")
            let house = try await client.execute(uri: "/v1/houses/\(UUID().uuidString.lowercased())", method: .put)
            #expect(house.status == .methodNotAllowed)
            #expect(house.headers[.allow] == "GET, HEAD")
            let nowhere = try await client.execute(uri: "/v1/houses/join/nowhere", method: .get)
            #expect(nowhere.status == .notFound)
            #expect(nowhere.json["code"] as? String == "not_found")
            let headNowhere = try await client.execute(uri: "/v1/nowhere", method: .head)
            #expect(headNowhere.status == .notFound)
            #expect(headNowhere.body.readableBytes == 0, "a HEAD problem has no body")
        }
    }

    /// A 100 KB Authorization header is 431 problem+json `headers_too_large`, not the parser's bare
    /// 400; a large header under the limit still reaches the route (401: a token of that shape was
    /// never issued).
    @Test func aHugeAuthorizationHeaderIs431Problem() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let huge = "Bearer " + String(repeating: "a", count: 100_000)
            let refused = try await client.execute(uri: "/v1/me", method: .get, headers: [.authorization: huge])
            #expect(refused.status == .requestHeaderFieldsTooLarge)
            #expect(refused.headers[.contentType] == "application/problem+json")
            #expect(refused.json["code"] as? String == "headers_too_large")
            #expect(refused.json["status"] as? Int == 431)

            let large = "Bearer " + String(repeating: "a", count: 10_000)
            let passed = try await client.execute(uri: "/v1/me", method: .get, headers: [.authorization: large])
            #expect(passed.status == .unauthorized)
            #expect(passed.json["code"] as? String == "unauthorized")

            // The same through the parser's own limit per field, with many headers in all.
            var many = HTTPFields()
            for index in 0..<40 { many[HTTPField.Name("X-Filler-\(index)")!] = String(repeating: "b", count: 1_000) }
            let tooMany = try await client.execute(uri: "/health", method: .get, headers: many)
            #expect(tooMany.status == .requestHeaderFieldsTooLarge)
            #expect(tooMany.json["code"] as? String == "headers_too_large")
        }
    }

    /// An Accept header no route can satisfy is disregarded (RFC 9110 §12.5.1): the generated
    /// code checked it only after the handler ran, so a command was carried out and answered 406.
    @Test func anUnsatisfiableAcceptIsDisregarded() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (_, token) = try await client.register("ann@example.org")
            var headers: HTTPFields = [.accept: "text/html", .authorization: "Bearer \(token)", .contentType: "application/json"]
            let created = try await client.execute(
                uri: "/v1/houses", method: .post, headers: headers, body: ByteBuffer(string: #"{"name":"Canal House"}"#))
            #expect(created.status == .created, "\(String(buffer: created.body))")
            #expect(created.headers[.contentType]?.hasPrefix("application/json") == true)
            headers[.accept] = "not a media range, ;;"
            let health = try await client.execute(uri: "/health", method: .get, headers: headers)
            #expect(health.status == .ok)
            // The map still negotiates: GeoJSON unless only plain JSON is asked for.
            let profile = try await client.send(.patch, "/v1/me", json: ["postcode": "1234AB"], token: token)
            #expect(profile.status == .ok)
            headers[.accept] = "application/json"
            let plain = try await client.execute(uri: "/v1/neighbourhood/map", method: .get, headers: headers)
            #expect(plain.status == .ok && plain.headers[.contentType]?.hasPrefix("application/json") == true)
            headers[.accept] = "application/geo+json"
            let geo = try await client.execute(uri: "/v1/neighbourhood/map", method: .get, headers: headers)
            #expect(geo.status == .ok && geo.headers[.contentType]?.hasPrefix("application/geo+json") == true)
        }
    }
}
