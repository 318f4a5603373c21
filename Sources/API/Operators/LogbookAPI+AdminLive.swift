import Foundation
import LogInspection
import OpenAPIRuntime

/// `GET /v1/admin/events/live`: the operators' live tail of the log, Server-Sent Events of the
/// events the filters of `GET /v1/admin/events` select (those that make sense going forward:
/// stream, category, type, actor). Every refusal is problem+json before the stream starts; the
/// stream is an operator subscription on the server's one `LiveHub` (`OperatorTail`).
extension LogbookAPI {
    func getAdminEventsLive(_ input: Operations.GetAdminEventsLive.Input) async throws -> Operations.GetAdminEventsLive.Output {
        try requireOperator()
        let query = input.query
        let lastEventID = try LiveTopicRequest.lastEventID(
            header: input.headers.lastEventID, query: query.lastEventId, head: try await runtime.log.headPosition())
        let filter = EventFilter(streamID: query.stream, category: query.category, type: query._type, actor: query.actor)
        let (subscription, catchUp) = try runtime.live.subscribeOperator(filter: filter, lastEventID: lastEventID)
        let stream = AdminLiveEventStream(lease: LiveLease(hub: runtime.live, subscription: subscription), filter: filter, catchUp: catchUp)
        return .ok(.init(
            headers: .init(cacheControl: "no-store"),
            body: .textEventStream(HTTPBody(stream, length: .unknown, iterationBehavior: .single))))
    }
}
