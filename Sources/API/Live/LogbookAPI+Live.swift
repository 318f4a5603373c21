import Foundation
import OpenAPIRuntime

/// `GET /v1/live`: Server-Sent Events of the topics the caller may watch (SPEC §1 "Live
/// updates"). Every refusal (token, topics, authorization, limits) is problem+json before the
/// stream starts; the stream itself is `LiveEventStream` on the server's one `LiveHub`.
extension LogbookAPI {
    func getLive(_ input: Operations.GetLive.Input) async throws -> Operations.GetLive.Output {
        let caller = try authenticate()
        let requested = try LiveTopicRequest.parse(input.query.topics)
        let lastEventID = try LiveTopicRequest.lastEventID(
            header: input.headers.lastEventID, query: input.query.lastEventId, head: try await runtime.log.headPosition())
        let grants = try requested.map { try $0.kind.grant($0.id, to: caller, api: self) }
        let runtime = runtime
        let tokenHash = caller.tokenHash
        let (subscription, catchUp) = try runtime.live.subscribe(
            userId: caller.userId, grants: grants, lastEventID: lastEventID,
            sessionActive: { (try? runtime.accounts.session(tokenHash))??.isActive(at: runtime.configuration.clock()) ?? false })
        let stream = LiveEventStream(lease: LiveLease(hub: runtime.live, subscription: subscription), catchUp: catchUp)
        return .ok(.init(
            headers: .init(cacheControl: "no-store"),
            body: .textEventStream(HTTPBody(stream, length: .unknown, iterationBehavior: .single))))
    }
}
