import Foundation

/// A watched query's value, and whether it may be out of date.
public struct Watched<Value: Sendable>: Sendable {
    public var value: Value
    /// True while the server cannot be reached: the value is the last one fetched (perhaps in
    /// an earlier launch, from the disk); false once fetched, or confirmed by a 304, since.
    public var isStale: Bool

    public init(value: Value, isStale: Bool) {
        self.value = value
        self.isStale = isStale
    }
}

extension Watched: Equatable where Value: Equatable {}
