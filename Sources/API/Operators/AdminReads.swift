import EventLog
import Foundation
import LogInspection
import OpenAPIRuntime
import Projections

/// The limits, checks and conversions of the admin reads of the log (`/v1/admin/events`,
/// `/v1/admin/streams/…`, `/v1/admin/audit`).
enum AdminReads {
    /// Events one page may read (of the log, or of the index its filters select) when they are
    /// filtered here: a filter matching nothing in ten million events still answers in bounded
    /// time, with a `next` to read on. Reads are synchronous, one short LMDB read transaction
    /// each, so none is held across an await.
    static let scannedEventsMax = 10_000

    /// The page size asked for: `ListPage`'s rule (50 by default, 1…500), 400 `invalid_limit` otherwise.
    static func items(_ limit: Int?) throws -> Int {
        let items = limit ?? ListPage.itemsPerPageDefault
        guard ListPage.itemsPerPage.contains(items) else {
            throw ProblemMapping.problem(for: ListQueryError.limitOutOfRange(items, allowed: ListPage.itemsPerPage))
        }
        return items
    }

    /// A `fromPosition` or `toPosition` query parameter; 400 `invalid_position` below 1.
    static func position(_ value: Int64?, name: String) throws -> UInt64? {
        guard let value else { return nil }
        guard value >= 1 else {
            throw Problem(status: .badRequest, code: "invalid_position", title: "Invalid position",
                          detail: "\(name) must be a position, 1 or more, not \(value)")
        }
        return UInt64(value)
    }

    /// A `from` or `to` query parameter: RFC 3339 with a zone, or a date (midnight UTC); 400
    /// `invalid_time` for one that does not exist (the contract's pattern cannot rule out 2025-02-30).
    static func time(_ text: String?, name: String) throws -> Timestamp? {
        guard let text else { return nil }
        guard let time = Timestamp(rfc3339: text) else {
            throw Problem(status: .badRequest, code: "invalid_time", title: "Invalid time",
                          detail: "\(name) must be an RFC 3339 time with a zone (2025-01-31T08:00:00Z) or a date (2025-01-31)")
        }
        return time
    }

    /// An event as the operator routes show it; the data as stored (personal fields sealed).
    static func event(_ event: RecordedEvent) -> Components.Schemas.AdminEvent {
        var data: OpenAPIValueContainer?
        var dataBase64: String?
        if EventDataText.json(event.data) != nil, let value = try? JSONDecoder().decode(OpenAPIValueContainer.self, from: event.data) {
            data = value
        } else {
            dataBase64 = event.data.base64EncodedString()
        }
        return Components.Schemas.AdminEvent(
            position: Int64(event.position), streamId: event.streamID, streamVersion: Int64(event.streamVersion), _type: event.type,
            recordedAt: Timestamp(event.recordedAt).rfc3339, actor: event.actor, commandId: identifier(event.commandID),
            correlationId: identifier(event.correlationID), causationId: event.causationID.map(identifier), tags: event.tags,
            schemaVersion: Int(event.schemaVersion), data: data, dataBase64: dataBase64)
    }

    /// An event as the audit shows it: who did what, when, under which command; no data.
    static func auditEntry(_ event: RecordedEvent) -> Components.Schemas.AuditEntry {
        Components.Schemas.AuditEntry(
            position: Int64(event.position), streamId: event.streamID, streamVersion: Int64(event.streamVersion), _type: event.type,
            recordedAt: Timestamp(event.recordedAt).rfc3339, actor: event.actor, commandId: identifier(event.commandID),
            correlationId: identifier(event.correlationID), causationId: event.causationID.map(identifier), tags: event.tags)
    }

    /// Ids in the lowercase form RFC 9562 recommends, as `logbook-admin` prints them.
    private static func identifier(_ id: UUID) -> String { id.uuidString.lowercased() }
}
