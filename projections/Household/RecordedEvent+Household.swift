import EventLog
import Household

extension RecordedEvent {
    /// The household event this record holds, or nil for another domain's event.
    ///
    /// Every projection sees the whole log; the prefix check keeps the cost of the other
    /// domains' events to a string comparison instead of a lookup and a JSON decode.
    func householdEvent() throws -> HouseholdEvent? {
        guard type.hasPrefix("household.") else { return nil }
        return try HouseholdEvent.decode(typeName: type, schemaVersion: schemaVersion, data: data)
    }
}
