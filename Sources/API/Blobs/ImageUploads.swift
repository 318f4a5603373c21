import BlobStore
import Blobs
import CommandHandling
import Crypto
import Foundation
import NIOCore
import OpenAPIRuntime

/// Stores an uploaded image and records its upload: the one path every image takes in
/// (`POST /v1/blobs`, `PUT /v1/me/avatar`).
struct ImageUploads: Sendable {
    let runtime: LogbookRuntime

    /// Streams `body` into the store a chunk at a time and records `blob.uploaded` for
    /// `uploaderId`. The file is durable before the event is appended, so a recorded upload
    /// always has its bytes; a crash in between leaves only an unrecorded file, which the
    /// collection removes after the grace period.
    ///
    /// The request digest of an `Idempotency-Key` is made of the method, the route and the
    /// image's hash, which stands for the body the edge did not collect. A route that runs a
    /// second command under the same key (the avatar) names a `commandKeyPurpose`: the command
    /// recording the upload then takes a command id derived from the key, so each command is
    /// retried as itself.
    func store(
        _ body: HTTPBody, by uploaderId: String, method: String, route: String, commandKeyPurpose: String? = nil
    ) async throws -> (StoredBlob, CommandOutcome<BlobDecider>) {
        let blob = try await write(body)
        var info = RequestInfo.current
        // A key that is no UUID is left as it is, for the runner's 400.
        if let purpose = commandKeyPurpose, let key = info.idempotencyKey.flatMap({ UUID(uuidString: $0.trimmingCharacters(in: .whitespaces)) }) {
            info.idempotencyKey = Self.derivedKey(key, purpose).uuidString
        }
        let digest = info.idempotencyKey == nil ? nil : RequestDigest.of(method: method, target: route, body: ByteBuffer(string: blob.blobId))
        let command = BlobCommand.recordUpload(blobId: blob.blobId, type: blob.type, bytes: blob.bytes)
        let outcome = try await RequestInfo.$current.withValue(info) {
            try await RequestDigest.$current.withValue(digest) {
                try await CommandRunner(runtime: runtime).run(BlobDecider.self, command, actor: uploaderId)
            }
        }
        return (blob, outcome)
    }

    /// A UUID made from `key` and `purpose`, the same for every retry of the request.
    static func derivedKey(_ key: UUID, _ purpose: String) -> UUID {
        var bytes = Array(SHA256.hash(data: Data("\(key.uuidString)\u{0}\(purpose)".utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80  // version 8: custom, RFC 9562 §5.8
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // the RFC's variant
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    /// The bytes of an image upload, whichever image type (or none) the client labelled them:
    /// the store sniffs the type from the bytes.
    static func body(of body: Operations.UploadBlob.Input.Body) -> HTTPBody {
        switch body {
        case .png(let bytes), .jpeg(let bytes), .imageWebp(let bytes), .imageHeic(let bytes), .binary(let bytes): bytes
        }
    }

    /// The avatar route's body, as `body(of:)`.
    static func body(of body: Operations.SetAvatar.Input.Body) -> HTTPBody {
        switch body {
        case .png(let bytes), .jpeg(let bytes), .imageWebp(let bytes), .imageHeic(let bytes), .binary(let bytes): bytes
        }
    }

    /// The sniffed type as the contract's enum, spelled the same.
    static func contentType(_ type: ImageType) -> Components.Schemas.ImageType {
        Components.Schemas.ImageType(rawValue: type.rawValue)!
    }

    /// The body written to the store; refusals as problems, the temporary file removed on any.
    private func write(_ body: HTTPBody) async throws -> StoredBlob {
        let upload: BlobUpload
        do {
            upload = try runtime.blobs.beginUpload()
        } catch {
            throw Problem.blobStore(error)
        }
        do {
            for try await chunk in body {
                try chunk.withUnsafeBytes { try upload.append($0) }
            }
            return try upload.finish()
        } catch let error as BlobStoreError {
            upload.abandon()
            // The disk failing is the service's fault: thrown as it is, so it is logged (500).
            if case .io = error { throw error }
            throw Problem.blobStore(error)
        } catch {
            // The body broke or the client went away mid-body: nothing to keep, and a 400 to
            // whoever is still there.
            upload.abandon()
            throw Problem.malformedBody(error)
        }
    }
}
