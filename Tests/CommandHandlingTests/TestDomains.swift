import EventSourcing
import Foundation

/// Unique names: the smallest domain with a uniqueness rule across streams.
enum Names: Decider {
    enum Command: Sendable { case claim(name: String, userID: String) }
    enum Event: DomainEvent {
        case claimed(Claimed)
        struct Claimed: Codable, Equatable, Sendable { var name: String; var userID: String }

        static let domain = "names"
        var typeName: String { "names.claimed" }
        var schemaVersion: UInt16 { 1 }
        var streamID: String { if case let .claimed(payload) = self { "name-\(payload.userID)" } else { "" } }
        var tags: [String] { if case let .claimed(payload) = self { ["name:\(payload.name.lowercased())", "user:\(payload.userID)"] } else { [] } }
        func encodeData() throws -> Data { if case let .claimed(payload) = self { try EventJSON.encode(payload) } else { Data() } }
        static func decode(typeName: String, schemaVersion: UInt16, data: Data, opening keyring: (any PersonalDataKeyring)?) throws -> Event? {
            typeName == "names.claimed" ? .claimed(try EventJSON.decode(Claimed.self, from: data)) : nil
        }
    }
    enum Failure: DomainError {
        case taken
        var code: String { "name_taken" }
        var kind: DomainErrorKind { .conflict }
        var detail: String { "the name is taken" }
    }
    typealias State = String?  // the holder

    static let initialState: String? = nil
    static func boundary(of command: Command) -> Boundary {
        if case let .claim(name, _) = command { .tag("name:\(name.lowercased())") } else { .tag("never") }
    }
    static func evolve(_ state: String?, _ event: Event) -> String? {
        if case let .claimed(payload) = event { payload.userID } else { state }
    }
    static func decide(_ command: Command, state: String?, metadata: CommandMetadata) throws(Failure) -> [Event] {
        guard case let .claim(name, userID) = command else { return [] }
        if state == userID { return [] }  // already yours: nothing to do
        guard state == nil else { throw .taken }
        return [.claimed(.init(name: name, userID: userID))]
    }
}

/// A running total per tally, for long boundaries and the cache.
enum Tally: Decider {
    enum Command: Sendable { case add(tally: String, amount: Int) }
    enum Event: DomainEvent {
        case added(Added)
        struct Added: Codable, Equatable, Sendable { var tally: String; var amount: Int; var total: Int }

        static let domain = "tally"
        var typeName: String { "tally.added" }
        var schemaVersion: UInt16 { 1 }
        var streamID: String { if case let .added(payload) = self { "tally-\(payload.tally)" } else { "" } }
        var tags: [String] { if case let .added(payload) = self { ["tally:\(payload.tally)"] } else { [] } }
        func encodeData() throws -> Data { if case let .added(payload) = self { try EventJSON.encode(payload) } else { Data() } }
        static func decode(typeName: String, schemaVersion: UInt16, data: Data, opening keyring: (any PersonalDataKeyring)?) throws -> Event? {
            typeName == "tally.added" ? .added(try EventJSON.decode(Added.self, from: data)) : nil
        }
    }
    enum Failure: DomainError {
        case negative
        var code: String { "negative" }
        var kind: DomainErrorKind { .validation }
        var detail: String { "amounts are positive" }
    }

    static let initialState = 0
    static func boundary(of command: Command) -> Boundary {
        if case let .add(tally, _) = command { .tag("tally:\(tally)") } else { .tag("never") }
    }
    static func evolve(_ state: Int, _ event: Event) -> Int {
        if case let .added(payload) = event { state + payload.amount } else { state }
    }
    static func decide(_ command: Command, state: Int, metadata: CommandMetadata) throws(Failure) -> [Event] {
        guard case let .add(tally, amount) = command else { return [] }
        guard amount > 0 else { throw .negative }
        return [.added(.init(tally: tally, amount: amount, total: state + amount))]
    }
}

/// Metadata for `actor` with a fresh command id unless given.
func metadata(_ actor: String = "user-1", commandID: UUID = .init(), fingerprint: Data? = nil) -> CommandMetadata {
    CommandMetadata(actor: actor, now: Date(timeIntervalSince1970: 1_800_000_000), commandID: commandID, fingerprint: fingerprint)
}

/// A stand-in for a caller's digest of a request: 32 bytes made from `request`.
func fingerprint(_ request: String) -> Data {
    var bytes = Array(request.utf8.prefix(32))
    bytes += Array(repeating: 0, count: 32 - bytes.count)
    return Data(bytes)
}
