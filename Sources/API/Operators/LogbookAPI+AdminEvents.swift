import EventLog
import LogInspection
import PostgresEventLog

/// The operators' reads of the log: events filtered, one stream, and the audit trail. Each needs
/// the operator token (`requireOperator`) and pages with `limit` and an opaque `cursor`.
extension LogbookAPI {
    func listAdminEvents(_ input: Operations.ListAdminEvents.Input) async throws -> Operations.ListAdminEvents.Output {
        try requireOperator()
        let query = input.query
        let items = try AdminReads.items(query.limit)
        let start = try AdminCursor.key(of: query.cursor, list: "events")
        let from = try AdminReads.position(query.fromPosition, name: "fromPosition") ?? 1
        let to = try AdminReads.position(query.toPosition, name: "toPosition") ?? .max
        let since = try AdminReads.time(query.from, name: "from"), until = try AdminReads.time(query.to, name: "to")
        // A range that selects nothing is an empty page, not an error: each bound is valid alone.
        if from > to { return .ok(.init(body: .json(.init(items: [])))) }
        if let since, let until, since >= until { return .ok(.init(body: .json(.init(items: [])))) }
        let filter = EventFilter(
            positions: from...to, streamID: query.stream, category: query.category, type: query._type, actor: query.actor,
            since: since, until: until)
        let page = try await EventScanner(store: runtime.log, filter: filter).page(
            from: start, direction: .forward, limit: items, scannedMax: AdminReads.scannedEventsMax)
        return .ok(.init(body: .json(.init(
            items: page.events.map(AdminReads.event), next: page.resumeKey.map { AdminCursor.encode($0, list: "events") }))))
    }

    func getAdminStream(_ input: Operations.GetAdminStream.Input) async throws -> Operations.GetAdminStream.Output {
        try requireOperator()
        let streamID = input.path.streamId
        let direction: ReadDirection = input.query.direction == .backward ? .backward : .forward
        let list = direction == .backward ? "stream:backward" : "stream:forward"
        let items = try AdminReads.items(input.query.limit)
        let start = try AdminCursor.key(of: input.query.cursor, list: list)
        // An id longer than the log allows names no stream: the log answers nil for it.
        guard try await runtime.log.streamVersion(streamID) != nil else {
            throw Problem(status: .notFound, code: "stream_not_found", title: "Stream not found", detail: "the log has no events of this stream")
        }
        // Every event of the stream matches, so the scan bound never shortens a page here.
        let page = try await EventScanner(store: runtime.log, filter: EventFilter(streamID: streamID)).page(
            from: start, direction: direction, limit: items, scannedMax: AdminReads.scannedEventsMax)
        return .ok(.init(body: .json(.init(
            items: page.events.map(AdminReads.event), next: page.resumeKey.map { AdminCursor.encode($0, list: list) }))))
    }

    func getAdminAudit(_ input: Operations.GetAdminAudit.Input) async throws -> Operations.GetAdminAudit.Output {
        try requireOperator()
        let subject: AuditTrail<EventLogBackend>.Subject
        switch (input.query.actor, input.query.entity) {
        case let (actor?, nil): subject = .actor(actor)
        case let (nil, entity?): subject = .entity(entity)
        default:
            throw Problem(status: .badRequest, code: "invalid_audit_subject", title: "Invalid audit subject",
                          detail: "pass exactly one of actor and entity")
        }
        let items = try AdminReads.items(input.query.limit)
        let start = try AdminCursor.key(of: input.query.cursor, list: "audit")
        let page = try await AuditTrail(store: runtime.log).page(subject, from: start, limit: items, scannedMax: AdminReads.scannedEventsMax)
        return .ok(.init(body: .json(.init(
            items: page.events.map(AdminReads.auditEntry), next: page.resumeKey.map { AdminCursor.encode($0, list: "audit") }))))
    }
}
