import Foundation
import TestSupport
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A tiny JSON client over URLSession, for the real server process.
struct HTTPClient: Sendable {
    /// `http://host:port`.
    let base: String

    /// Sends `json` (a JSON-serialisable value) with the bearer `token`, if any.
    func send(
        _ method: String, _ path: String, json: Any? = nil, token: String? = nil, headers: [String: String] = [:]
    ) async throws -> HTTPReply {
        var request = URLRequest(url: URL(string: base + path)!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let json {
            request.httpBody = try JSONSerialization.data(withJSONObject: json)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let (data, response) = try await URLSession.shared.data(for: request)
        return HTTPReply(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: data)
    }

    /// Registers an account; expects 201 with a token.
    func register(_ email: String, displayName: String, password: String = "correct horse") async throws -> (userId: String, token: String) {
        let reply = try await send("POST", "/v1/accounts", json: ["email": email, "password": password, "displayName": displayName])
        try #require(reply.status == 201, "register \(email): \(reply.text)")
        return (try #require(reply.json["userId"] as? String), try #require(reply.json["token"] as? String))
    }

    /// Logs in; expects 201 and returns the token.
    func login(_ email: String, _ password: String) async throws -> String {
        let reply = try await send("POST", "/v1/sessions", json: ["email": email, "password": password])
        try #require(reply.status == 201, "login \(email): \(reply.text)")
        return try #require(reply.json["token"] as? String)
    }
}

/// A reply of the real server.
struct HTTPReply: Sendable {
    let status: Int
    let body: Data

    var text: String { String(decoding: body, as: UTF8.self) }
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
    /// The objects of the array field `key`.
    func list(_ key: String) -> [[String: Any]] { json[key] as? [[String: Any]] ?? [] }
}

extension ServerProcess {
    var client: HTTPClient { HTTPClient(base: address) }
}
