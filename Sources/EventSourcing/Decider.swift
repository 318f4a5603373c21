/// A domain's rules as three pure functions (the Decider pattern): `evolve` folds events into
/// state, `decide` turns a command and the current state into new events or a refusal.
///
/// What "current state" means is the command's consistency boundary: the events matching
/// `boundary(of:)`. The runtime folds exactly those, decides, and appends on the condition that
/// no new event matching the boundary arrived meanwhile, so a decision is never made on stale
/// state. Deciders do no I/O and read no clock or randomness: time, new ids and random picks
/// arrive in the command and its metadata.
public protocol Decider: Sendable {
    /// What the actor asks for.
    associatedtype Command: Sendable
    /// What happened.
    associatedtype Event: DomainEvent
    /// What a decision needs to know, folded from the boundary's events.
    associatedtype State: Sendable
    /// The one error enum of the domain.
    associatedtype Failure: DomainError

    /// The state before any event.
    static var initialState: State { get }
    /// The events whose fold is the state `command` is decided on.
    static func boundary(of command: Command) -> Boundary
    /// The state after `event`. Implement this or `evolve(_:_:)` with `inout`, not neither:
    /// each defaults to the other.
    static func evolve(_ state: State, _ event: Event) -> State
    /// `state` changed in place by `event`: what folds call, so that a state's storage is not
    /// copied for every event (a group of 10,000 photos took seconds to fold by value).
    static func evolve(_ state: inout State, _ event: Event)
    /// The events `command` produces in `state` (none: nothing to do), or why it is refused.
    static func decide(_ command: Command, state: State, metadata: CommandMetadata) throws(Failure) -> [Event]
}

extension Decider {
    /// A copy of `state`, changed in place.
    public static func evolve(_ state: State, _ event: Event) -> State {
        var next = state
        evolve(&next, event)
        return next
    }

    /// `state` replaced by the state after `event`.
    public static func evolve(_ state: inout State, _ event: Event) {
        state = evolve(state, event)
    }

    /// The state after `events`, from the initial state.
    public static func fold(_ events: some Sequence<Event>) -> State {
        fold(events, from: initialState)
    }

    /// The state after `events`, from `state`.
    public static func fold(_ events: some Sequence<Event>, from state: State) -> State {
        events.reduce(into: state) { evolve(&$0, $1) }
    }
}

/// A consistency boundary: events matching any item. An item matches events carrying all its
/// tags whose type is one of its types (any type when empty).
public struct Boundary: Sendable, Hashable {
    /// One alternative.
    public struct Item: Sendable, Hashable {
        /// Event type names; empty means any.
        public var types: [String]
        /// Tags an event must all carry; at least one, so a boundary never spans the whole log.
        public var tags: [String]

        /// Events carrying all `tags`, of one of `types` (any type when empty).
        public init(types: [String] = [], tags: [String]) {
            precondition(!tags.isEmpty, "a boundary item names at least one tag")
            self.types = types
            self.tags = tags
        }
    }

    /// The alternatives.
    public var items: [Item]

    /// A boundary of alternatives.
    public init(_ items: [Item]) {
        self.items = items
    }

    /// Every event carrying `tag`.
    public static func tag(_ tag: String) -> Boundary {
        Boundary([Item(tags: [tag])])
    }

    /// This boundary and `other`'s events together.
    public func union(_ other: Boundary) -> Boundary {
        Boundary(items + other.items.filter { !items.contains($0) })
    }
}
