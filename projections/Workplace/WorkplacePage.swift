/// One page of a workplace list: the directory by name, reviews and news newest first.
public struct WorkplacePage<Item: Sendable & Equatable>: Sendable, Equatable {
    /// The items on this page.
    public var items: [Item]
    /// The cursor of the next page; nil when this page is the last.
    public var next: String?
}
