import EventLog
import EventSourcing

extension Boundary {
    /// The log query that reads this boundary's events.
    var eventQuery: EventQuery {
        EventQuery(items: items.map { EventQuery.Item(types: $0.types, tags: $0.tags) })
    }
}
