import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
@testable import API

/// `If-Match` on `PUT /v1/me/avatar`: the account's ETag (`GET /v1/me`) is checked before the
/// image is stored, so a stale one is 412 with no upload recorded, and again in the append.
@Suite("Avatar If-Match", .timeLimit(.minutes(3)))
struct AvatarIfMatchTests {
    /// `PUT /v1/me/avatar` with `image`, `If-Match: ifMatch` and an optional Idempotency-Key.
    private func setAvatar(
        _ client: any TestClientProtocol, _ image: Data, token: String, ifMatch: String, key: String? = nil
    ) async throws -> Reply {
        var headers: HTTPFields = [.authorization: "Bearer \(token)", .contentType: "image/png", .ifMatch: ifMatch]
        if let key { headers[HTTPField.Name("Idempotency-Key")!] = key }
        let response = try await client.execute(uri: "/v1/me/avatar", method: .put, headers: headers, body: ByteBuffer(bytes: image))
        return Reply(status: response.status, headers: response.headers, body: Data(buffer: response.body))
    }

    @Test func aStaleIfMatchIs412BeforeTheUploadIsRecordedAndACurrentOneSetsTheAvatar() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (userId, ann) = try await client.register("ann@example.org")
            let held = try #require(try await client.me(ann).headers[.eTag])
            // The profile changes meanwhile (another device): the held tag is stale.
            #expect(try await client.send(.patch, "/v1/me", json: ["displayName": "Annie"], token: ann).status == .ok)
            let head = try server.runtime.log.lmdb.headPosition()
            let image = TestImages.png(70)
            let stale = try await setAvatar(client, image, token: ann, ifMatch: held)
            #expect(stale.status == .preconditionFailed && stale.code == "precondition_failed" && stale.isProblem, "\(stale.text)")
            #expect(try server.runtime.log.lmdb.headPosition() == head, "no blob.uploaded, no avatar change appended")
            #expect(try await client.blob(TestImages.id(image), token: ann).code == "blob_not_found", "the upload was not recorded")
            #expect(try await client.me(ann).json["avatarBlobId"] == nil)

            let current = try #require(try await client.me(ann).headers[.eTag])
            #expect(current == (try server.runtime.log.lmdb.streamVersion("account-\(userId)")).map { "\"\($0)\"" })
            let set = try await setAvatar(client, image, token: ann, ifMatch: current)
            #expect(set.status == .ok, "\(set.text)")
            #expect(set.json["events"] as? [String] == ["blob.uploaded", "account.avatarChanged"])
            let after = try await client.me(ann)
            #expect(after.json["avatarBlobId"] as? String == TestImages.id(image))
            #expect(after.headers[.eTag] != current, "the avatar change moved the account's version")

            // `*` matches any version.
            #expect(try await setAvatar(client, TestImages.png(71), token: ann, ifMatch: "*").status == .ok)
        }
    }

    @Test func aMalformedOrUnmatchableIfMatchIsRefusedBeforeTheUpload() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let ann = try await client.register("ann@example.org").token
            let head = try server.runtime.log.lmdb.headPosition()
            for malformed in ["3", "\"3", "\"1\", \"2\""] {
                let reply = try await setAvatar(client, TestImages.png(72), token: ann, ifMatch: malformed)
                #expect(reply.status == .badRequest && reply.code == "invalid_if_match", "If-Match \(malformed): \(reply.text)")
            }
            for unmatchable in ["W/\"1\"", "\"007\"", "\"999\""] {
                let reply = try await setAvatar(client, TestImages.png(72), token: ann, ifMatch: unmatchable)
                #expect(reply.status == .preconditionFailed && reply.code == "precondition_failed", "If-Match \(unmatchable): \(reply.text)")
            }
            #expect(try server.runtime.log.lmdb.headPosition() == head, "nothing recorded")
            #expect(try await client.blob(TestImages.id(TestImages.png(72)), token: ann).code == "blob_not_found")
        }
    }

    /// A retry under the same Idempotency-Key answers the first outcome, though the avatar it set
    /// moved the version its If-Match names.
    @Test func aRetryOfASetAvatarAnswersItsFirstOutcome() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let ann = try await client.register("ann@example.org").token
            let held = try #require(try await client.me(ann).headers[.eTag])
            let key = UUID().uuidString
            let first = try await setAvatar(client, TestImages.png(73), token: ann, ifMatch: held, key: key)
            #expect(first.status == .ok, "\(first.text)")
            let head = try server.runtime.log.lmdb.headPosition()
            let retry = try await setAvatar(client, TestImages.png(73), token: ann, ifMatch: held, key: key)
            #expect(retry.status == .ok && retry.json["position"] as? Int == first.json["position"] as? Int, "\(retry.text)")
            #expect(try server.runtime.log.lmdb.headPosition() == head)
            // Another request with the now stale tag is refused.
            #expect(try await setAvatar(client, TestImages.png(74), token: ann, ifMatch: held).status == .preconditionFailed)
        }
    }
}
