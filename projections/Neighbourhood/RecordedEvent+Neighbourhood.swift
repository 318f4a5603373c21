import EventLog
import Neighbourhood

extension RecordedEvent {
    /// The neighbourhood event this record holds, or nil for another domain's event.
    ///
    /// Every projection sees the whole log; the prefix check keeps the cost of the other
    /// domains' events to a string comparison instead of a lookup and a JSON decode.
    func neighbourhoodEvent() throws -> NeighbourhoodEvent? {
        guard type.hasPrefix("neighbourhood.") else { return nil }
        return try NeighbourhoodEvent.decode(typeName: type, schemaVersion: schemaVersion, data: data)
    }
}
