import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import API

/// `POST /v1/blobs` and `GET /v1/blobs/{blobId}`: images stored by their hash, their type
/// sniffed, refused over 10 MiB while streaming, and served only to who may see them.
@Suite("Blob routes", .timeLimit(.minutes(3)))
struct BlobRouteTests {
    @Test func anUploadIsStoredByItsHashAndServedToItsUploaderWithCachingHeaders() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (_, ann) = try await client.register("ann@example.org")
            let (_, eve) = try await client.register("eve@example.org", displayName: "Eve")
            let image = TestImages.png(200)
            // The label is a JPEG's: the type comes from the bytes.
            let stored = try await client.upload(image, token: ann, contentType: "image/jpeg")
            #expect(stored.status == .created, "\(stored.text)")
            let blobId = TestImages.id(image)
            #expect(stored.json["blobId"] as? String == blobId)
            #expect(stored.json["contentType"] as? String == "image/png")
            #expect(stored.json["bytes"] as? Int == image.count)
            #expect(stored.json["events"] as? [String] == ["blob.uploaded"])
            #expect(stored.headers[.location] == "/v1/blobs/\(blobId)")
            #expect(server.storedBlobFiles() == ["\(blobId.prefix(2))/\(blobId)"])

            let served = try await client.blob(blobId, token: ann)
            #expect(served.status == .ok)
            #expect(served.body == image)
            #expect(served.headers[.contentType] == "image/png")
            #expect(served.headers[.eTag] == "\"\(blobId)\"")
            #expect(served.headers[.cacheControl] == "private")
            #expect(served.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
            let current = try await client.blob(blobId, token: ann, ifNoneMatch: "\"\(blobId)\"")
            #expect(current.status == .notModified && current.body.isEmpty)
            #expect(try await client.blob(blobId, token: ann, ifNoneMatch: "\"other\"").status == .ok)

            // Eve sees nothing: not the image, not that it exists, not through If-None-Match.
            for reply in [try await client.blob(blobId, token: eve), try await client.blob(blobId, token: eve, ifNoneMatch: "*")] {
                #expect(reply.status == .notFound && reply.code == "blob_not_found" && reply.isProblem)
            }
            #expect(try await client.blob(String(repeating: "a", count: 64), token: ann).code == "blob_not_found")
            #expect(try await client.blob("..%2F..%2Fetc%2Fpasswd", token: ann).code == "blob_not_found")
            #expect(try await client.blob(blobId.uppercased(), token: ann).code == "blob_not_found")
            #expect(try await client.send(.get, "/v1/blobs/\(blobId)").status == .unauthorized)

            // The same bytes again by Ann: the same id, nothing new recorded. By Eve: her own
            // upload, after which she may read it.
            let again = try await client.upload(image, token: ann)
            #expect(again.status == .created && again.json["blobId"] as? String == blobId && again.json["events"] as? [String] == [])
            let eves = try await client.upload(image, token: eve)
            #expect(eves.json["events"] as? [String] == ["blob.uploaded"])
            #expect(try await client.blob(blobId, token: eve).status == .ok)
            #expect(server.storedBlobFiles().count == 1)
        }
    }

    @Test func onlyImagesAreStoredWhateverTheirLabel() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (_, ann) = try await client.register("ann@example.org")
            let text = try await client.upload(Data("just some text, not a picture at all".utf8), token: ann, contentType: "image/png")
            #expect(text.status == .unsupportedMediaType && text.code == "unsupported_media_type" && text.isProblem, "\(text.text)")
            let labelled = try await client.upload(TestImages.png(1), token: ann, contentType: "text/plain")
            #expect(labelled.status == .unsupportedMediaType && labelled.code == "unsupported_media_type")
            let truncated = try await client.upload(TestImages.png(1).prefix(8), token: ann)
            #expect(truncated.status == .unsupportedMediaType, "\(truncated.text)")
            let empty = try await client.upload(Data(), token: ann)
            #expect(empty.status == .unprocessableContent && empty.code == "validation_failed", "\(empty.text)")
            let unlabelled = try await client.upload(TestImages.png(2), token: ann, contentType: nil)
            #expect(unlabelled.status == .created, "\(unlabelled.text)")
            #expect(server.storedBlobFiles().count == 1)
            #expect(server.noTemporaryUploads())
            #expect(try await client.upload(TestImages.png(3), token: "not-a-token").status == .unauthorized)
        }
    }

    /// 11 MiB is refused 413 whether the client declares it or streams it chunked, and nothing
    /// is left behind; exactly 10 MiB is stored, so the limit is the SPEC's and not lower.
    @Test func overTenMebibytesIsRefusedWithAndWithoutContentLength() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (_, ann) = try await client.register("ann@example.org")
            let declared = try await client.upload(TestImages.jpeg(count: 11 << 20), token: ann, contentType: "image/jpeg")
            #expect(declared.status == .contentTooLarge && declared.code == "payload_too_large", "\(declared.text)")

            let port = try #require(client.port)
            let chunked = try await ChunkedUpload.send(port: port, path: "/v1/blobs", token: ann,
                                                 chunk: TestImages.jpeg(count: 64 << 10), totalBytes: 11 << 20)
            #expect(chunked == 413)
            let avatar = try await ChunkedUpload.send(port: port, path: "/v1/me/avatar", token: ann,
                                                chunk: TestImages.jpeg(count: 64 << 10), totalBytes: 11 << 20)
            #expect(avatar == nil || avatar == 413 || avatar == 405, "PUT route, POSTed: refused either way")
            #expect(server.storedBlobFiles().isEmpty)
            #expect(server.noTemporaryUploads())

            let limit = try await client.upload(TestImages.jpeg(count: 10 << 20), token: ann, contentType: "image/jpeg")
            #expect(limit.status == .created, "\(limit.text)")
            #expect(limit.json["bytes"] as? Int == 10 << 20)
            let small = try await ChunkedUpload.send(port: port, path: "/v1/blobs", token: ann, chunk: TestImages.jpeg(count: 1000), totalBytes: 1000)
            #expect(small == 201)
            #expect(server.storedBlobFiles().count == 2)
        }
    }

    @Test func anIdempotencyKeyRetriesTheSameUploadAndRefusesOtherBytes() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (_, ann) = try await client.register("ann@example.org")
            let key = UUID().uuidString
            let first = try await client.upload(TestImages.png(5), token: ann, key: key)
            let retry = try await client.upload(TestImages.png(5), token: ann, key: key)
            #expect(first.status == .created && retry.status == .created)
            #expect(retry.json["position"] as? Int == first.json["position"] as? Int)
            #expect(retry.json["events"] as? [String] == ["blob.uploaded"])
            let other = try await client.upload(TestImages.png(6), token: ann, key: key)
            #expect(other.status == .unprocessableContent && other.code == "idempotency_key_reused", "\(other.text)")
            let malformed = try await client.upload(TestImages.png(7), token: ann, key: "not-a-uuid")
            #expect(malformed.status == .badRequest && malformed.code == "invalid_idempotency_key")
        }
    }
}
