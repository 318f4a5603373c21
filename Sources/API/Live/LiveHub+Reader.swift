import Accounts
import EventLog
import Logging

/// The hub's reader: follows the projected position and fans each event out.
extension LiveHub {
    /// Account events after which the streams of the user they name check their token again.
    static let sessionEventTypes: Set<String> = [
        AccountEvent.SessionEnded.typeName, AccountEvent.PasswordChanged.typeName, AccountEvent.PasswordResetRedeemed.typeName,
        AccountEvent.Erased.typeName,
    ]

    /// Offers every event the read models include to the streams watching it, until the task is
    /// cancelled; then ends every stream. Wakes on the projected position, never polls.
    func run(logger: Logger) async {
        var next = state.withLock { $0.delivered } + 1
        while !Task.isCancelled {
            await projected.wait(untilReaching: next)
            let target = projected.position
            guard !Task.isCancelled, target >= next else { break }  // cancelled, or the watch closed
            // Nobody watching: nothing to read. A stream opened later starts from the projected
            // position, or reads what it missed from the log itself.
            let idle = state.withLock { state in
                if state.subscriptions.isEmpty { state.delivered = target }
                return state.subscriptions.isEmpty
            }
            if idle {
                next = target + 1
                continue
            }
            do throws(EventLogError) {
                while next <= target {
                    let page = try await log.readAll(from: next, direction: .forward, limit: LiveLimits.catchUpPageEvents)
                        .prefix { $0.position <= target }
                    guard let last = page.last else { break }
                    fanOut(Array(page))
                    next = last.position + 1
                }
                state.withLock { $0.delivered = max($0.delivered, target) }
                next = target + 1
            } catch {
                // The log's own reads fail only when its storage does; the projection runner
                // reports that too. Retry the same position, so no stream misses an event.
                logger.error("live: reading the log failed", metadata: ["position": "\(next)", "error": "\(error)"])
                try? await Task.sleep(for: .seconds(1))
            }
        }
        shutDown()
    }

    /// Offers `page` (in order) to the streams, after the rechecks its membership and session
    /// events call for; `delivered` moves with each event, under the same lock as the streams
    /// registering, so a stream opening meanwhile gets each event exactly once.
    func fanOut(_ page: [RecordedEvent]) {
        let mapped = page.map { (event: $0, keys: LiveTopics.keys(of: $0), rechecked: LiveTopics.kindsRechecked(on: $0.type)) }
        var ended: [(LiveSubscription, LiveEnd)] = []
        state.withLock { state in
            for (event, keys, rechecked) in mapped {
                if !rechecked.isEmpty || Self.sessionEventTypes.contains(event.type) {
                    ended += Self.recheck(event, keys: keys, kinds: rechecked, in: &state)
                }
                var offered = Set<Int>()
                for key in keys {
                    for id in state.byKey[key] ?? [] where !offered.contains(id) {
                        guard let subscription = state.subscriptions[id], event.position > subscription.liveAfter,
                              let topic = subscription.topic(for: event, keys: keys) else { continue }
                        offered.insert(id)
                        if !subscription.offer(.event(position: event.position, type: event.type, topic: topic)) {
                            Self.remove(id, from: &state)
                        }
                    }
                }
                state.delivered = event.position
            }
        }
        for (subscription, reason) in ended { subscription.finish(reason) }
    }

    /// The streams `event` ends: those whose grants of `kinds` no longer hold (among the streams
    /// watching its topics or belonging to a user it names), and, after a session event, those
    /// of its user whose token stopped working. They are removed from `state`.
    private static func recheck(
        _ event: RecordedEvent, keys: [String], kinds: [String], in state: inout State
    ) -> [(LiveSubscription, LiveEnd)] {
        let users = LiveTopics.tagValues(event, prefix: "user:")
        var affected = Set(users.flatMap { state.byUser[$0] ?? [] })
        for key in keys { affected.formUnion(state.byKey[key] ?? []) }
        var ended: [(LiveSubscription, LiveEnd)] = []
        for id in affected {
            guard let subscription = state.subscriptions[id] else { continue }
            var reason: LiveEnd?
            if sessionEventTypes.contains(event.type), users.contains(subscription.userId), !subscription.sessionActive() {
                reason = .sessionEnded
            } else {
                // A loop, not `lazy.compactMap(…).first`: that evaluates its closure twice, and a
                // recheck changes the grants, so the second run found nothing and trapped.
                for kind in kinds where reason == nil { reason = subscription.recheck(kind: kind) }
            }
            if let reason {
                remove(id, from: &state)
                ended.append((subscription, reason))
            }
        }
        return ended
    }
}
