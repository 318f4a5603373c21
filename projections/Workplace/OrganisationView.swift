import EventSourcing

/// An organisation as its members see it: its name and locations.
public struct OrganisationView: Sendable, Equatable, Codable {
    /// The organisation's id.
    public var organisationId: String
    /// Its name, as registered.
    public var name: String
    /// Its locations in the order they were created (the registered ones first).
    public var locations: [OrganisationLocation]
}

/// A location of an organisation.
public struct OrganisationLocation: Sendable, Equatable, Codable {
    /// The location's id.
    public var locationId: String
    /// Its current name.
    public var name: String
}

/// An organisation in the public directory: what anyone may see of it.
public struct OrganisationDirectoryEntry: Sendable, Equatable, Codable {
    /// The organisation's id.
    public var organisationId: String
    /// Its name, as registered.
    public var name: String
    /// The name folded (`FoldedName.folded`), what a search matches; stored so that a scan
    /// does not fold every name it passes.
    var folded: String
}

extension OrganisationView: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.write(organisationId)
        writer.write(name)
        writer.write(locations)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        organisationId = try reader.read()
        name = try reader.read()
        locations = try reader.read()
    }
}

extension OrganisationLocation: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.write(locationId)
        writer.write(name)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        locationId = try reader.read()
        name = try reader.read()
    }
}

extension OrganisationDirectoryEntry: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.write(organisationId)
        writer.write(name)
        writer.write(folded)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        organisationId = try reader.read()
        name = try reader.read()
        folded = try reader.read()
    }
}
