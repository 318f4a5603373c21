import EventSourcing
@testable import Projections

/// A registered projection handed every event of the log, whatever domains it names in
/// `reads`: what it builds must equal what the engine's filtered hand-off builds, or `reads`
/// left out a domain `apply` uses.
struct EveryEventProjection: Projection {
    let wrapped: any Projection

    var name: String { wrapped.name }
    var version: Int { wrapped.version }
    var tables: [String] { wrapped.tables }
    var reads: [any DecodableDomainEvent.Type]? { nil }

    func apply(_ event: ProjectedEvent, to model: ReadModelWriter) throws {
        try wrapped.apply(event, to: model)
    }
}
