import EventSourcing
import Foundation
import Household

/// The household's events as its read models take them: every member's name as the log stores
/// it (sealed), never opened; a completion apart, as `history` reads it.
///
/// Why: the read models keep the names sealed (`houses`' members, `history`, `tasks`' last
/// completion) and `HouseholdQueries` opens them when they are read, so an erased user's name
/// reads erased as soon as her key is destroyed and is never in the read-model file in the clear
/// (ADR 0009, 0018). A build opens nothing: opening a completion's name was a fifth of a build on
/// a server's log (docs/benchmarks.md).
public enum HouseholdProjectionInput: DecodableDomainEvent {
    /// `household.taskCompleted`, its `displayName` as stored: open it with `HouseholdQueries`.
    case completion(HouseholdEvent.TaskCompleted)
    /// Any other household event, a member's name (`houseCreated`, `memberJoined`) as stored.
    case event(HouseholdEvent)

    public static var domain: String { HouseholdEvent.domain }

    /// The event, its names left as stored.
    public var event: HouseholdEvent {
        switch self {
        case .completion(let completed): .taskCompleted(completed)
        case .event(let event): event
        }
    }

    /// `keyring` is not used: nothing is opened.
    public static func decode(typeName: String, schemaVersion: UInt16, data: Data, opening keyring: (any PersonalDataKeyring)?) throws -> HouseholdProjectionInput? {
        if typeName == HouseholdEvent.TaskCompleted.typeName, schemaVersion == HouseholdEvent.TaskCompleted.schemaVersion {
            return .completion(try EventJSON.decodeAsStored(HouseholdEvent.TaskCompleted.self, from: data))
        }
        return try HouseholdEvent.catalogue.decodeAsStored(typeName: typeName, schemaVersion: schemaVersion, data: data).map(Self.event)
    }
}
