/// Why and where a projection stopped: the event whose `apply` threw. Stored in the projection's
/// metadata, so a restart and another process (`logbook-admin stats`) see it too.
public struct ProjectionFailure: Sendable, Equatable, Codable, ReadModelValue {
    /// The log position of the event whose `apply` threw.
    public var position: UInt64
    /// What `apply` threw.
    public var reason: String

    /// A failure at `position` for `reason`.
    public init(position: UInt64, reason: String) {
        self.position = position
        self.reason = reason
    }

    public func encode(to writer: inout ValueWriter) {
        writer.write(position)
        writer.write(reason)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        position = try reader.read()
        reason = try reader.read()
    }
}
