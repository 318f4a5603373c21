/// Selects events by type and tags, for append conditions (a dynamic consistency boundary).
///
/// An event matches an item when its type is one of the item's types (any type if empty) and it
/// carries every one of the item's tags. It matches the query when it matches any item.
public struct EventQuery: Sendable, Hashable {
    /// One alternative of the query.
    public struct Item: Sendable, Hashable {
        /// Event types, any of which matches; empty means every type.
        public var types: [String]
        /// Tags the event must all carry; empty means no tag is required.
        public var tags: [String]

        /// An item matching events of one of `types` that carry all of `tags`.
        public init(types: [String] = [], tags: [String] = []) {
            self.types = types
            self.tags = tags
        }

        func matches(type: String, tags eventTags: [String]) -> Bool {
            (types.isEmpty || types.contains(type)) && tags.allSatisfy(eventTags.contains)
        }
    }

    /// The alternatives; an event matching any of them matches the query.
    public var items: [Item]

    /// A query of alternatives.
    public init(items: [Item]) {
        self.items = items
    }

    /// A query with one item.
    public init(types: [String] = [], tags: [String] = []) {
        self.items = [Item(types: types, tags: tags)]
    }

    package func matches(type: String, tags: [String]) -> Bool {
        items.contains { $0.matches(type: type, tags: tags) }
    }
}

/// "Fail the append if an event matching `query` was appended after position `after`."
///
/// A decider that read the events matching `query` up to position P appends with
/// `AppendCondition(failIfEventsMatch: query, after: P)`: if anything relevant landed since, its
/// decision may be stale and the append fails instead of silently breaking a rule.
public struct AppendCondition: Sendable, Hashable {
    /// The events that would make the decision stale.
    public var query: EventQuery
    /// The last position the decision took into account (0: the empty log).
    public var after: UInt64

    /// A condition failing when an event matching `query` exists after position `after`.
    public init(failIfEventsMatch query: EventQuery, after: UInt64) {
        self.query = query
        self.after = after
    }
}
