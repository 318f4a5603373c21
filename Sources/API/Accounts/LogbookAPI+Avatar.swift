import Accounts
import Foundation

/// `PUT /v1/me/avatar`: the image is stored and its upload recorded like `POST /v1/blobs`, then
/// set on the profile (`account.avatarChanged`), which `GET /v1/me` shows as `avatarBlobId`.
///
/// An `If-Match` (the ETag of `GET /v1/me`) is checked twice. First against the account stream's
/// version in the log before the image is stored: a stale tag is 412 with no blob written and
/// no `blob.uploaded` recorded. Then, as for every command on an entity, by the log inside the
/// account command's append: a change that lands between the two checks is still 412.
extension LogbookAPI {
    func setAvatar(_ input: Operations.SetAvatar.Input) async throws -> Operations.SetAvatar.Output {
        let session = try authenticate()
        let account = EntityStream.account(session.userId)
        // A retry of a carried-out request answers its first outcome, whatever the stream did since.
        if try await !accountsService.isRetry() { try await refuseStaleIfMatch(on: account) }
        let (blob, upload) = try await ImageUploads(runtime: runtime).store(
            ImageUploads.body(of: input.body), by: session.userId, method: "PUT", route: "/v1/me/avatar", commandKeyPurpose: "avatar image")
        let outcome = try await accountsService.run(
            .setAvatar(.init(userId: session.userId, blobId: blob.blobId)), actor: session.userId, entity: account,
            expecting: AccountEvent.AvatarChanged.typeName)
        return .ok(.init(body: .json(.init(
            avatarBlobId: blob.blobId, contentType: ImageUploads.contentType(blob.type), bytes: blob.bytes,
            position: outcome.responsePosition, events: upload.eventTypes + outcome.eventTypes))))
    }

    /// 412 now when the request's `If-Match` names a version `stream` is no longer at (400 when it
    /// is malformed), for a route that records something before its command on the entity runs.
    /// Only an early refusal: the append's own expected-version check stays the one that holds.
    func refuseStaleIfMatch(on stream: String) async throws(Problem) {
        guard let expected = try EntityTag.expectedVersions(of: stream, ifMatch: RequestInfo.current.ifMatch)[stream] else { return }
        let current: UInt64?
        do {
            current = try await runtime.log.streamVersion(stream)
        } catch {
            throw ProblemMapping.problem(for: error)
        }
        guard expected.isSatisfied(by: current) else { throw EntityTag.preconditionFailed }
    }
}
