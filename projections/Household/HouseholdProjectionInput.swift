import EventSourcing
import Foundation
import Household

/// The household's events as its read models take them: a completion with its completer's name
/// as the log stores it (sealed), every other event whole and opened.
///
/// Why: completions are most of a household log, each with one sealed name, and opening it was
/// a fifth of a build on a server's log (docs/benchmarks.md). The two read models that keep the
/// name (`history`, and `tasks`' last completion) store it sealed and `HouseholdQueries` opens
/// it when it is read, so an erased user's name also reads erased at once (ADR 0009).
public enum HouseholdProjectionInput: DecodableDomainEvent {
    /// `household.taskCompleted`, its `displayName` as stored: open it with `HouseholdQueries`.
    case completion(HouseholdEvent.TaskCompleted)
    /// Any other household event.
    case event(HouseholdEvent)

    public static var domain: String { HouseholdEvent.domain }

    /// The event, a completion's name left as stored.
    public var event: HouseholdEvent {
        switch self {
        case .completion(let completed): .taskCompleted(completed)
        case .event(let event): event
        }
    }

    public static func decode(typeName: String, schemaVersion: UInt16, data: Data, opening keyring: (any PersonalDataKeyring)?) throws -> HouseholdProjectionInput? {
        if typeName == HouseholdEvent.TaskCompleted.typeName, schemaVersion == HouseholdEvent.TaskCompleted.schemaVersion {
            return .completion(try EventJSON.decodeAsStored(HouseholdEvent.TaskCompleted.self, from: data))
        }
        return try HouseholdEvent.decode(typeName: typeName, schemaVersion: schemaVersion, data: data, opening: keyring).map(Self.event)
    }
}
