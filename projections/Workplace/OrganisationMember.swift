import Foundation

/// An accepted member of an organisation.
public struct OrganisationMember: Sendable, Equatable, Codable {
    /// The member's user id.
    public var userId: String
    /// Their name as a member (as accepted, or the creator's display name when registering).
    public var name: String
    /// Their employee number; nil for the creator, who was never asked for one.
    public var employeeNumber: String?
    /// Where they work.
    public var locationId: String
    /// Whether they are an admin.
    public var admin: Bool
}

/// A join request waiting for an admin.
public struct JoinRequestView: Sendable, Equatable, Codable {
    /// Who asks.
    public var userId: String
    /// The name they gave.
    public var name: String
    /// The employee number they gave.
    public var employeeNumber: String
    /// Where they say they work.
    public var locationId: String
    /// When they asked.
    public var requestedAt: Date
}

/// Where one user stands with one organisation; no value (nil) when they are neither a member
/// nor waiting.
public enum WorkplaceMembership: Sendable, Equatable, Codable {
    /// An accepted member (an admin or an employee).
    case member(OrganisationMember)
    /// Their join request waits for an admin.
    case pending(JoinRequestView)
}

extension OrganisationMember: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.write(userId)
        writer.write(name)
        writer.write(employeeNumber)
        writer.write(locationId)
        writer.write(admin)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        userId = try reader.read()
        name = try reader.read()
        employeeNumber = try reader.read()
        locationId = try reader.read()
        admin = try reader.read()
    }
}

extension JoinRequestView: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.write(userId)
        writer.write(name)
        writer.write(employeeNumber)
        writer.write(locationId)
        writer.write(requestedAt)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        userId = try reader.read()
        name = try reader.read()
        employeeNumber = try reader.read()
        locationId = try reader.read()
        requestedAt = try reader.read()
    }
}
