import EventLog
import EventSourcing
import Foundation
import Workplace

/// A workplace log shaped like real use (`WorkplaceLogGenerator`): one organisation per
/// `eventsPerOrganisation` events with a few locations, members joining (some rejected, some
/// of those asking again), review forms of 3–8 questions of mixed kinds that are edited now and
/// then, and mostly reviews (60%) and news (20%). Every event is what `WorkplaceDecider` decides
/// of a command its user could have sent at that point, one event a command, which `check` proves.
enum WorkplaceLog {
    /// About one organisation per this many events.
    static let eventsPerOrganisation = 2_000

    /// Appends `events` workplace events (no fsync), each decided on the state of its
    /// organisation's events so far, and returns how many it wrote.
    static func fill(_ store: LMDBEventStore, events: Int, sealer: EventSealer = .plain) async throws -> Int {
        var batch = DomainEventBatch(store: store, sealer: sealer)
        var steps = WorkplaceLogGenerator(events: events)
        var states: [String: WorkplaceState] = [:]
        while let step = steps.next() {
            try await batch.decide(
                step.command, with: WorkplaceDecider.self, state: &states[step.command.organisationId, default: WorkplaceDecider.initialState],
                by: step.actor, at: step.now)
        }
        return try await batch.finish()
    }

    /// What `check` counted.
    struct CheckSummary {
        var events = 0
        var organisations = 0
        var eventsByType: [String: Int] = [:]
    }

    /// Runs every step's command through `WorkplaceDecider` on the state of its organisation's
    /// events so far (the command's boundary: `organisation:<id>`, and for a registration also
    /// the name's tag, which no earlier event carries as every name differs), as `fill` does, and
    /// requires the decider to accept it and decide exactly one event; and requires each event
    /// to encode and decode back to itself. Throws at the first step that fails.
    static func check(events: Int) throws -> CheckSummary {
        var steps = WorkplaceLogGenerator(events: events)
        var states: [String: WorkplaceState] = [:]
        var names: Set<String> = []
        var summary = CheckSummary()
        while let step = steps.next() {
            let position = summary.events + 1
            let organisationId = step.command.organisationId
            if case .registerOrganisation(_, let name, _, _) = step.command {
                guard names.insert(FoldedName.digest(name)).inserted else {
                    throw BenchError.refused("step \(position): the name \(name) is registered twice")
                }
            }
            let state = states.removeValue(forKey: organisationId) ?? WorkplaceDecider.initialState
            let metadata = CommandMetadata(actor: step.actor, now: step.now, commandID: UUID())
            let decided: [WorkplaceEvent]
            do {
                decided = try WorkplaceDecider.decide(step.command, state: state, metadata: metadata)
            } catch {
                throw BenchError.refused("step \(position): the decider refused \(step.command) by \(step.actor): \(error.code) \(error.fieldErrors)")
            }
            guard decided.count == 1, let event = decided.first else {
                throw BenchError.refused("step \(position): for \(step.command) by \(step.actor) the decider decided \(decided), not one event")
            }
            let data = try event.encodeData()
            let decoded = try WorkplaceEvent.decode(typeName: event.typeName, schemaVersion: event.schemaVersion, data: data)
            guard decoded == event else {
                throw BenchError.refused("step \(position): \(event.typeName) decodes as \(String(describing: decoded)), not as \(event)")
            }
            states[organisationId] = WorkplaceDecider.evolve(state, event)
            summary.events += 1
            summary.eventsByType[event.typeName, default: 0] += 1
        }
        summary.organisations = states.count
        return summary
    }
}
