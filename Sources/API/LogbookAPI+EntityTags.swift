import Accounts
import Albums
import EventLog
import Household
import Neighbourhood
import Workplace

/// The `ETag` of an entity GET: its stream's version as of what the read models hold.
///
/// The body comes from the read models, which include the log up to at least the projected
/// position taken *before* the body is read. The tag is the version of the stream's last event at
/// or before that position, so it never names a version the body may not show (a command that
/// `If-Match`es it would otherwise overwrite a change its client never saw). When a read model
/// runs ahead of the others the tag can be older than the body: a later `If-Match` is then 412
/// once too often, never accepted wrongly. The common case is one stream-index seek.
extension LogbookAPI {
    /// The position every read model includes now; take it before reading an entity's body.
    var projectedPosition: UInt64 { runtime.projections.projected.position }

    /// The ETag of the entity whose stream is `stream`, as of `position`; nil when the stream has
    /// no event there yet (a read model ahead of the projected position shows a newer entity).
    func eTag(of stream: String, asOf position: UInt64) async throws(Problem) -> String? {
        var from = UInt64.max
        // The newest event first, alone: it is nearly always projected already.
        var limit = 1
        while true {
            let page: [RecordedEvent]
            do {
                page = try await runtime.log.readStream(stream, from: from, direction: .backward, limit: limit)
            } catch {
                throw ProblemMapping.problem(for: error)
            }
            if let seen = page.first(where: { $0.position <= position }) { return EntityTag.of(version: seen.streamVersion) }
            // Newer events than the read models hold: only as many as they lag behind the log.
            guard let oldest = page.last, oldest.streamVersion > 0 else { return nil }
            from = oldest.streamVersion - 1
            limit = Self.eTagPageEvents
        }
    }

    /// Stream events read per step back past the newest: no more than the read models lag.
    static var eTagPageEvents: Int { 16 }
}

/// The stream whose version is an entity's `ETag`, per kind of entity (docs: openapi.yaml's
/// `ETag` header). Rooms, tasks, forms, reviews, news, photos and messages have no stream of
/// their own: theirs is the house's, organisation's or group's, a coarser tag that changes with
/// any change of the whole.
enum EntityStream {
    static func house(_ houseId: String) -> String { HouseholdEvent.streamID(house: houseId) }
    static func game(_ gameId: String) -> String { "game-\(gameId)" }
    static func report(_ reportId: String) -> String { NeighbourhoodEvent.streamID(report: reportId) }
    static func organisation(_ organisationId: String) -> String { WorkplaceEvent.streamID(organisation: organisationId) }
    static func group(_ groupId: String) -> String { AlbumsEvent.streamID(group: groupId) }
    static func account(_ userId: String) -> String { AccountNames.stream(userId) }
}
