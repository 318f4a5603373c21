import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import NIOPosix
import Testing

/// An HTTP/1.1 client whose connections come from a chosen loopback address (`127.0.0.2`,
/// `127.0.0.3`, …) to the server on `127.0.0.1`, so the server sees distinct client addresses
/// for real, from the socket, as it would see distinct clients: nothing a client could claim in
/// a header. Linux routes all of 127/8 to the loopback interface.
///
/// One connection per request (`Connection: close`), so simultaneous requests are simultaneous
/// on the server too, not queued behind each other on one keep-alive connection.
struct AddressedClient: Sendable {
    /// The client address, e.g. `127.0.0.2`.
    let address: String
    /// The server's port on 127.0.0.1.
    let port: Int

    /// Sends `json` with the token and key given; the server's reply.
    func send(
        _ method: HTTPRequest.Method, _ path: String, json: Any? = nil, token: String? = nil, key: String? = nil
    ) async throws -> Reply {
        let body = try json.map { try JSONSerialization.data(withJSONObject: $0) } ?? Data()
        var head = "\(method.rawValue) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        head += "Content-Length: \(body.count)\r\n"
        if json != nil { head += "Content-Type: application/json\r\n" }
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        if let key { head += "Idempotency-Key: \(key)\r\n" }
        var request = ByteBuffer(string: head + "\r\n")
        request.writeBytes(body)

        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(to: try SocketAddress(ipAddress: address, port: 0))
            .connectTimeout(.seconds(10))
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        let response = try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(request)
            var response = ByteBuffer()
            for try await var chunk in inbound { response.writeBuffer(&chunk) }
            return Data(buffer: response)
        }
        return try Self.parse(response)
    }

    /// Logs in; the reply as it is.
    func login(_ email: String, _ password: String, key: String? = nil) async throws -> Reply {
        try await send(.post, "/v1/sessions", json: ["email": email, "password": password], key: key)
    }

    struct MalformedResponse: Error {
        let text: String
    }

    /// A whole HTTP/1.1 response (the server closed after it): status, headers and body.
    private static func parse(_ data: Data) throws -> Reply {
        guard let split = data.firstRange(of: Data("\r\n\r\n".utf8)) else { throw MalformedResponse(text: String(decoding: data, as: UTF8.self)) }
        let lines = String(decoding: data[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, let code = Int(statusParts[1]) else { throw MalformedResponse(text: lines[0]) }
        var headers = HTTPFields()
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":"), let name = HTTPField.Name(String(line[..<colon])) else { continue }
            headers.append(HTTPField(name: name, value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var body = Data(data[split.upperBound...])
        if headers[.transferEncoding]?.lowercased() == "chunked" { body = try dechunk(body) }
        return Reply(status: HTTPResponse.Status(code: code), headers: headers, body: body)
    }

    private static func dechunk(_ data: Data) throws -> Data {
        var body = Data()
        var rest = data[...]
        while let lineEnd = rest.firstRange(of: Data("\r\n".utf8)) {
            let sizeText = String(decoding: rest[..<lineEnd.lowerBound], as: UTF8.self)
            guard let size = Int(sizeText.split(separator: ";")[0], radix: 16) else { throw MalformedResponse(text: sizeText) }
            if size == 0 { break }
            let start = lineEnd.upperBound
            guard rest.distance(from: start, to: rest.endIndex) >= size + 2 else { throw MalformedResponse(text: "short chunk") }
            let end = rest.index(start, offsetBy: size)
            body.append(rest[start..<end])
            rest = rest[rest.index(end, offsetBy: 2)...]
        }
        return body
    }
}

extension TestClientProtocol {
    /// A client of this live test server connecting from `127.0.0.<host>`.
    func from(_ host: Int) throws -> AddressedClient {
        AddressedClient(address: "127.0.0.\(host)", port: try #require(port, "a live test server"))
    }
}
