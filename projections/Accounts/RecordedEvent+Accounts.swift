import Accounts
import EventLog

extension RecordedEvent {
    /// The account event this record holds, or nil for another domain's event.
    ///
    /// Every projection sees the whole log; the prefix check keeps the cost of other domains'
    /// events to a string comparison instead of a JSON decode.
    func accountEvent() throws -> AccountEvent? {
        guard type.hasPrefix("account.") else { return nil }
        return try AccountEvent.decode(typeName: type, schemaVersion: schemaVersion, data: data)
    }
}
