import Foundation

/// A domain's registrations: one per payload type, its stored type name and schema version, the
/// pair that picks the type a record is decoded with. Built once per domain from the list of its
/// payload types; a name registered twice at one version is a programming error.
///
/// Searched entry by entry rather than hashed: a domain has at most a few dozen types, a name of
/// another length is passed over without comparing bytes (`==` alone compares the shared prefix,
/// `household.`, of every name before the lengths), and the payload type is called through its
/// metatype with no closure to copy out of a table: 0.7% of a quiz rebuild's samples, where a
/// dictionary of closures took 3.5% and the hand-written switches this replaced 1.3%.
public struct EventPayloadCatalogue<Event: DomainEvent>: Sendable {
    @usableFromInline let names: [String]
    @usableFromInline let versions: [UInt16]
    @usableFromInline let payloads: [any EventPayload<Event>.Type]

    /// Every stored type name of the domain once, in the order the payloads were listed (a
    /// boundary over all of them is then the same value every time).
    public let typeNames: [String]

    /// The registrations of `payloads`.
    public init(_ payloads: [any EventPayload<Event>.Type]) {
        let names = payloads.map { $0.typeName }
        let versions = payloads.map { $0.schemaVersion }
        for name in names {
            precondition(name.hasPrefix(Event.domain + "."), "\(name) is not of \(Event.domain)")
        }
        let registrations = zip(names, versions).map { "\($0) v\($1)" }
        precondition(Set(registrations).count == registrations.count, "a type is registered twice at one version in \(registrations)")
        self.names = names
        self.versions = versions
        self.payloads = payloads
        var listed = Set<String>()
        typeNames = names.filter { listed.insert($0).inserted }
    }

    /// The event stored as `typeName` at `schemaVersion` with `data`, sealed fields opened with
    /// `keyring`; nil when the type is another domain's. Inlinable, so that it is specialized
    /// for each domain: generic, it looks up the payloads' existential metatype at every call.
    @inlinable public func decode(
        typeName: String, schemaVersion: UInt16, data: Data, opening keyring: (any PersonalDataKeyring)?
    ) throws -> Event? {
        guard let index = try registration(of: typeName, at: schemaVersion) else { return nil }
        return try payloads[index].decodeEvent(from: data, opening: keyring)
    }

    /// As `decode`, with every payload's personal fields as the log stores them, not opened.
    @inlinable public func decodeAsStored(typeName: String, schemaVersion: UInt16, data: Data) throws -> Event? {
        guard let index = try registration(of: typeName, at: schemaVersion) else { return nil }
        return try payloads[index].decodeEventAsStored(from: data)
    }

    /// Where `typeName` is registered at `schemaVersion`; nil for a name the domain does not
    /// register. A registered name at a version nobody registered is an error, not another
    /// domain's event to pass over, nor a version to read as if it were another.
    @inlinable func registration(of typeName: String, at schemaVersion: UInt16) throws(EventCatalogueError) -> Int? {
        let length = typeName.utf8.count
        var registered = false
        for index in names.indices where names[index].utf8.count == length && names[index] == typeName {
            if versions[index] == schemaVersion { return index }
            registered = true
        }
        guard registered else { return nil }
        throw .unregisteredVersion(typeName: typeName, schemaVersion: schemaVersion, registered: registeredVersions(of: typeName))
    }

    /// The versions `typeName` is registered at, for the error.
    @usableFromInline func registeredVersions(of typeName: String) -> [UInt16] {
        zip(names, versions).filter { $0.0 == typeName }.map(\.1).sorted()
    }
}

/// Why a stored event of a domain's own type name could not be read.
public enum EventCatalogueError: Error, Equatable, CustomStringConvertible {
    /// No payload is registered at the version the event was stored at: written by a newer
    /// server, or in a shape whose payload type is no longer registered.
    case unregisteredVersion(typeName: String, schemaVersion: UInt16, registered: [UInt16])

    public var description: String {
        switch self {
        case let .unregisteredVersion(typeName, schemaVersion, registered):
            "\(typeName) is registered at schema version \(registered.map(String.init).joined(separator: ", ")), not \(schemaVersion)"
        }
    }
}
