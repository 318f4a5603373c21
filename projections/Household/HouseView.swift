/// A house as `GET /v1/houses/{houseId}` shows it.
public struct HouseView: Sendable, Equatable, Codable {
    /// The house's id.
    public var houseId: String
    /// Its name.
    public var name: String
    /// The code that lets someone join now.
    public var joinCode: String
    /// Whether the last member left. A closed house has no members, so no one may see it; it is
    /// kept so that its id keeps meaning "this house", not "never existed".
    public var isClosed: Bool
    /// Current members in the order they joined.
    public var members: [MemberView]
    /// Rooms sorted by name, ignoring case.
    public var rooms: [RoomView]
}

/// A member of a house, as lists of members and "done by" fields show one.
public struct MemberView: Sendable, Equatable, Codable {
    /// The member's user id.
    public var userId: String
    /// The display name they joined with.
    public var displayName: String
}

/// A room of a house.
public struct RoomView: Sendable, Equatable, Codable {
    /// The room's id.
    public var roomId: String
    /// Its current name.
    public var name: String
}

extension HouseView: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.write(houseId)
        writer.write(name)
        writer.write(joinCode)
        writer.write(isClosed)
        writer.write(members)
        writer.write(rooms)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        houseId = try reader.read()
        name = try reader.read()
        joinCode = try reader.read()
        isClosed = try reader.read()
        members = try reader.read()
        rooms = try reader.read()
    }
}

extension MemberView: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.write(userId)
        writer.write(displayName)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        userId = try reader.read()
        displayName = try reader.read()
    }
}

extension RoomView: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.write(roomId)
        writer.write(name)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        roomId = try reader.read()
        name = try reader.read()
    }
}
