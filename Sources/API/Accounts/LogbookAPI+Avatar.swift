import Accounts
import Foundation

/// `PUT /v1/me/avatar`: the image is stored and its upload recorded like `POST /v1/blobs`, then
/// set on the profile (`account.avatarChanged`), which `GET /v1/me` shows as `avatarBlobId`.
extension LogbookAPI {
    func setAvatar(_ input: Operations.SetAvatar.Input) async throws -> Operations.SetAvatar.Output {
        let session = try authenticate()
        let (blob, upload) = try await ImageUploads(runtime: runtime).store(
            ImageUploads.body(of: input.body), by: session.userId, method: "PUT", route: "/v1/me/avatar", commandKeyPurpose: "avatar image")
        let outcome = try await accountsService.run(
            .setAvatar(.init(userId: session.userId, blobId: blob.blobId)), actor: session.userId, expecting: "account.avatarChanged")
        return .ok(.init(body: .json(.init(
            avatarBlobId: blob.blobId, contentType: ImageUploads.contentType(blob.type), bytes: blob.bytes,
            position: outcome.responsePosition, events: upload.eventTypes + outcome.eventTypes))))
    }
}
