import Household
import Projections
import Testing
@testable import API

/// A recheck tells the app's refusal (the grant goes; with none left the stream is `revoked`)
/// from a check that could not be made (the stream ends `unavailable`, its grants untouched, so
/// the client reconnects and is checked anew): a read model rebuilding is not a departure, and
/// is not a reason to keep delivering either.
@Suite("Live: rechecks")
struct LiveRecheckTests {
    private static func grant(_ topic: String, kind: String = "house", _ recheck: @escaping @Sendable () throws -> Void) -> LiveGrant {
        LiveGrant(topic: topic, kind: kind, keys: [topic], recheck: recheck)
    }

    private static func subscription(_ grants: [LiveGrant]) -> LiveSubscription {
        LiveSubscription(id: 1, userId: "ann", grants: grants, liveAfter: 0, bufferEventsMax: 8, sessionActive: { true })
    }

    @Test func aRouteRefusalIsARefusalAndEverythingElseIsUndecided() {
        let refusals: [any Error] = [
            ProblemMapping.problem(for: HouseholdError.notAMember), Problem.unauthorized(tokenGiven: true), LiveGrant.NoLongerAllowed(),
        ]
        for error in refusals { #expect(Self.grant("house:h") { throw error }.verdict() == .refused, "\(error)") }
        let failures: [any Error] = [
            ReadModelError.rebuilding("household"), ReadModelError.unavailable(projection: "household", failedAt: 9),
            ProblemMapping.problem(for: ReadModelError.rebuilding("household")),
        ]
        for error in failures { #expect(Self.grant("house:h") { throw error }.verdict() == .undecided, "\(error)") }
        #expect(Self.grant("house:h") {}.verdict() == .allowed)
    }

    @Test func aRefusedGrantGoesAndTheStreamEndsOnlyWhenNoneIsLeft() {
        let stream = Self.subscription([
            Self.grant("house:left") { throw ProblemMapping.problem(for: HouseholdError.notAMember) },
            Self.grant("house:stays") {},
            Self.grant("group:g", kind: "group") { throw LiveGrant.NoLongerAllowed() },
        ])
        #expect(stream.recheck(kind: "house") == nil, "one house grant is left")
        #expect(stream.grants.map(\.topic) == ["house:stays", "group:g"], "only the refused one of the rechecked kind went")
        #expect(stream.recheck(kind: "group") == nil)
        #expect(stream.grants.map(\.topic) == ["house:stays"])

        let alone = Self.subscription([Self.grant("house:left") { throw ProblemMapping.problem(for: HouseholdError.houseNotFound) }])
        #expect(alone.recheck(kind: "house") == .revoked)
        #expect(alone.grants.isEmpty)
    }

    @Test func aCheckThatCannotBeMadeEndsTheStreamAsUnavailableKeepingItsGrants() {
        let stream = Self.subscription([
            Self.grant("house:left") { throw ProblemMapping.problem(for: HouseholdError.notAMember) },
            Self.grant("house:rebuilding") { throw ReadModelError.rebuilding("household") },
        ])
        #expect(stream.recheck(kind: "house") == .unavailable)
        #expect(stream.grants.count == 2, "nothing is called refused that was not")
    }
}
