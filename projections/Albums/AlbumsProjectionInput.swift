import Albums
import EventSourcing
import Foundation

/// The albums' events as `albums.groups` takes them: a photo's description and adder's name and
/// a message's text and author's name as the log stores them (sealed), never opened; every
/// other event whole and opened (its addresses, which the read model still keys by: ADR 0018).
///
/// Why: `albums.groups` keeps what a user wrote sealed and `AlbumsQueries` opens it when read, so
/// an erased user's texts read erased as soon as her key is destroyed and are never in the
/// read-model file in the clear.
public struct AlbumsProjectionInput: DecodableDomainEvent {
    /// The event, a photo's or a message's personal fields as stored.
    public var event: AlbumsEvent

    public static var domain: String { AlbumsEvent.domain }

    public static func decode(typeName: String, schemaVersion: UInt16, data: Data, opening keyring: (any PersonalDataKeyring)?) throws -> AlbumsProjectionInput? {
        if typeName == AlbumsEvent.PhotoAdded.typeName || typeName == AlbumsEvent.MessagePosted.typeName {
            return try AlbumsEvent.catalogue.decodeAsStored(typeName: typeName, schemaVersion: schemaVersion, data: data).map(Self.init)
        }
        return try AlbumsEvent.decode(typeName: typeName, schemaVersion: schemaVersion, data: data, opening: keyring).map(Self.init)
    }
}
