import EventSourcing
import Foundation
import Testing

/// A counter that refuses to go above a limit: the smallest decider that uses every part.
private enum Counter: Decider {
    enum Command: Sendable { case add(Int) }
    enum Event: DomainEvent {
        case added(Added)
        struct Added: Codable, Equatable, Sendable { var amount: Int; var at: Date }

        static let domain = "counter"
        var typeName: String { "counter.added" }
        var schemaVersion: UInt16 { 1 }
        var streamID: String { "counter-1" }
        var tags: [String] { ["counter:1"] }
        func encodeData() throws -> Data {
            switch self { case .added(let payload): try EventJSON.encode(payload) }
        }
        static func decode(typeName: String, schemaVersion: UInt16, data: Data, opening keyring: (any PersonalDataKeyring)?) throws -> Event? {
            typeName == "counter.added" ? .added(try EventJSON.decode(Added.self, from: data)) : nil
        }
    }
    enum Failure: DomainError {
        case overLimit(Int)
        var code: String { "over_limit" }
        var kind: DomainErrorKind { .conflict }
        var detail: String { "the counter would pass its limit" }
        var fieldErrors: [FieldError] {
            if case let .overLimit(amount) = self { [FieldError("amount", "\(amount) is too much")] } else { [] }
        }
    }
    typealias State = Int

    static let initialState = 0
    static func boundary(of command: Command) -> Boundary { .tag("counter:1") }
    static func evolve(_ state: Int, _ event: Event) -> Int {
        switch event { case .added(let payload): state + payload.amount }
    }
    static func decide(_ command: Command, state: Int, metadata: CommandMetadata) throws(Failure) -> [Event] {
        switch command {
        case .add(let amount):
            guard state + amount <= 10 else { throw .overLimit(amount) }
            return amount == 0 ? [] : [.added(.init(amount: amount, at: metadata.now))]
        }
    }
}

@Suite("Decider shape")
struct DeciderShapeTests {
    private let metadata = CommandMetadata(actor: "user-1", now: Date(timeIntervalSince1970: 1_700_000_000.25), commandID: UUID())

    @Test func givenWhenThenProducesEventsOrTheRefusal() throws {
        let seven = Counter.Event.added(.init(amount: 7, at: metadata.now))
        #expect(try Counter.given([seven]).when(.add(3), metadata).get() == [.added(.init(amount: 3, at: metadata.now))])
        #expect(throws: Counter.Failure.overLimit(4)) { try Counter.given([seven]).when(.add(4), metadata).get() }
        #expect(try Counter.given([seven]).when(.add(0), metadata).get().isEmpty, "nothing to do is no events, not an error")
        #expect(Counter.fold([seven, seven]) == 14)
    }

    @Test func eventJSONRoundTripsWithSortedKeysAndFractionalUTCDates() throws {
        let event = Counter.Event.added(.init(amount: 2, at: metadata.now))
        let data = try event.encodeData()
        #expect(String(decoding: data, as: UTF8.self) == #"{"amount":2,"at":"2023-11-14T22:13:20.250Z"}"#)
        #expect(try Counter.Event.decode(typeName: event.typeName, schemaVersion: 1, data: data) == event)
        #expect(try Counter.Event.decode(typeName: "other.event", schemaVersion: 1, data: data) == nil)
        #expect(event.schemaVersion == 1)
    }

    @Test func metadataDefaultsCorrelationToTheCommand() {
        #expect(metadata.correlationID == metadata.commandID)
        #expect(Counter.Failure.overLimit(4).fieldErrors == [FieldError("amount", "4 is too much")])
    }

    @Test func boundaryUnionKeepsEachItemOnce() {
        let user = Boundary([.init(types: ["a.b"], tags: ["user:1"])])
        let union = Boundary.tag("house:1").union(user).union(.tag("house:1"))
        #expect(union.items == [Boundary.Item(tags: ["house:1"]), Boundary.Item(types: ["a.b"], tags: ["user:1"])])
    }
}
