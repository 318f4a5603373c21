import Blobs
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import API

/// Images and uploads for the blob, avatar and albums route tests.
enum TestImages {
    /// A tiny valid PNG of one colour (`SolidPNG`), different for every colour.
    static func png(_ red: UInt8, _ green: UInt8 = 0, _ blue: UInt8 = 0) -> Data {
        SolidPNG.image(width: 2, height: 2, red: red, green: green, blue: blue)
    }

    /// A JPEG's start (SOI and an APP0 marker) and filler: what the store sniffs, `count` bytes.
    static func jpeg(count: Int) -> Data {
        var bytes = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01])
        bytes.append(Data(repeating: 0x5A, count: max(0, count - bytes.count)))
        return bytes
    }

    /// The lowercase hex SHA-256 of `bytes`: the blob id the store gives them.
    static func id(_ bytes: Data) -> String {
        SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }
}

extension TestClientProtocol {
    /// Sends `bytes` to `uri` (`POST /v1/blobs` unless told) labelled `contentType`.
    func upload(
        _ bytes: Data, token: String, contentType: String? = "image/png", method: HTTPRequest.Method = .post, uri: String = "/v1/blobs",
        key: String? = nil
    ) async throws -> Reply {
        var headers: HTTPFields = [.authorization: "Bearer \(token)"]
        if let contentType { headers[.contentType] = contentType }
        if let key { headers[HTTPField.Name("Idempotency-Key")!] = key }
        let response = try await execute(uri: uri, method: method, headers: headers, body: ByteBuffer(bytes: bytes))
        return Reply(status: response.status, headers: response.headers, body: Data(buffer: response.body))
    }

    /// Uploads `bytes` and returns the blob id; expects 201.
    func uploadedBlob(_ bytes: Data, token: String) async throws -> String {
        let reply = try await upload(bytes, token: token)
        try #require(reply.status == .created, "upload: \(reply.text)")
        return try #require(reply.json["blobId"] as? String)
    }

    /// `GET /v1/blobs/<blobId>` with `token`.
    func blob(_ blobId: String, token: String, ifNoneMatch: String? = nil) async throws -> Reply {
        var headers: HTTPFields = [.authorization: "Bearer \(token)"]
        if let ifNoneMatch { headers[.ifNoneMatch] = ifNoneMatch }
        let response = try await execute(uri: "/v1/blobs/\(blobId)", method: .get, headers: headers, body: nil)
        return Reply(status: response.status, headers: response.headers, body: Data(buffer: response.body))
    }
}

extension TestServer {
    /// The blob files the store holds (outside `tmp/`), by name.
    func storedBlobFiles() -> [String] {
        let root = (directory as NSString).appendingPathComponent("blobs")
        let enumerator = FileManager.default.enumerator(atPath: root)
        var files: [String] = []
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            FileManager.default.fileExists(atPath: (root as NSString).appendingPathComponent(path), isDirectory: &isDirectory)
            if !isDirectory.boolValue, !path.hasPrefix("tmp/"), path.split(separator: "/").count == 2 { files.append(path) }
        }
        return files
    }

    /// Whether `blobs/tmp/` holds no upload in progress.
    func noTemporaryUploads() -> Bool {
        let tmp = (directory as NSString).appendingPathComponent("blobs/tmp")
        return ((try? FileManager.default.contentsOfDirectory(atPath: tmp)) ?? []).isEmpty
    }
}

/// Sends a request with a chunked body over a plain socket, as a client without
/// Content-Length does: the test clients always declare the length.
enum ChunkedUpload {
    /// POSTs `totalBytes` bytes of `chunk` repeated, in chunks, to `path` on `port`; returns the
    /// status line's code, or nil when the server closed before answering.
    static func send(port: Int, path: String, token: String, chunk: Data, totalBytes: Int) async throws -> Int? {
        try await RawHTTPConnection.offThePool {
            let connection = try RawHTTPConnection(port: port)
            let head = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\nContent-Type: image/jpeg\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n"
            var sent = 0
            var open = connection.send(head)
            while open, sent < totalBytes {
                let piece = chunk.prefix(totalBytes - sent)
                open = connection.send(Data(String(piece.count, radix: 16).utf8) + Data("\r\n".utf8) + piece + Data("\r\n".utf8))
                sent += piece.count
            }
            if open { connection.send("0\r\n\r\n") }
            return connection.receive().status
        }
    }
}

extension Reply {
    /// The body's array `key`, as JSON objects.
    func list(_ key: String) -> [[String: Any]] { json[key] as? [[String: Any]] ?? [] }
}
