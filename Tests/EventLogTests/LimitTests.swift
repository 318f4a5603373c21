import Foundation
import Testing
@testable import EventLog

@Suite("Limits and bad input", .timeLimit(.minutes(3)))
struct LimitTests {
    private func expectRejected(_ bad: AppendRequest, _ expected: EventLogError, configure: (inout EventStoreOptions) -> Void = { _ in }) async throws {
        let log = try TestLog(configure: configure)
        defer { log.remove() }
        await #expect(throws: expected) { try await log.store.append(bad) }
        #expect(try log.store.headPosition() == 0, "a rejected append writes nothing")
    }

    @Test func eventDataOverOneMebibyte() async throws {
        let big = ProposedEvent(streamID: "s-1", type: "t", data: Data(repeating: 0x20, count: (1 << 20) + 1))
        try await expectRejected(request([big]), .limitExceeded(limit: "eventDataBytesMax", value: (1 << 20) + 1, max: 1 << 20))
    }

    @Test func dataOfExactlyOneMebibyteIsAccepted() async throws {
        let log = try TestLog()
        defer { log.remove() }
        var json = Data("\"".utf8) + Data(repeating: 0x61, count: (1 << 20) - 2) + Data("\"".utf8)
        json.count = 1 << 20
        _ = try await log.store.append(request([ProposedEvent(streamID: "s-1", type: "t", data: json)]))
        #expect(try log.store.event(at: 1)?.data == json)
        #expect(try log.store.verify().isHealthy)
    }

    @Test func tooManyEventsInOneAppend() async throws {
        try await expectRejected(request((0..<5).map { _ in event("s-1") }),
                                 .limitExceeded(limit: "eventsPerAppendMax", value: 5, max: 4)) { $0.limits.eventsPerAppendMax = 4 }
    }

    /// An append of no events records only its command, so a command that decided nothing
    /// keeps its id: a retry replays it, another command under the id is refused.
    @Test func anEmptyAppendRecordsOnlyItsCommand() async throws {
        let log = try TestLog()
        defer { log.remove() }
        _ = try await log.store.append(request([event("s-1")]))
        let commandID = UUID()
        var nothing = request([], commandID: commandID)
        nothing.metadata.fingerprint = Data(repeating: 7, count: 32)
        let recorded = try await log.store.append(nothing)
        #expect(recorded == AppendResult(firstPosition: 2, lastPosition: 1) && recorded.eventCount == 0)
        #expect(try log.store.everything().count == 1)
        #expect(try await log.store.append(nothing) == AppendResult(firstPosition: 2, lastPosition: 1, isReplay: true, fingerprint: nothing.metadata.fingerprint))
        var other = request([event("s-1")], commandID: commandID)
        other.metadata.fingerprint = Data(repeating: 8, count: 32)
        await #expect(throws: EventLogError.commandIDReused(commandID: commandID)) { try await log.store.append(other) }
        #expect(try log.store.headPosition() == 1)
        #expect(try log.store.verify().isHealthy)
    }

    @Test func fingerprints() async throws {
        var empty = request([event("s-1")])
        empty.metadata.fingerprint = Data()
        try await expectRejected(empty, .invalidArgument(field: "fingerprint", reason: "must not be empty"))
        var long = request([event("s-1")])
        long.metadata.fingerprint = Data(repeating: 1, count: 33)
        try await expectRejected(long, .limitExceeded(limit: "fingerprintBytesMax", value: 33, max: 32))
    }

    @Test func streamIDs() async throws {
        let long = "s-" + String(repeating: "x", count: 199)
        try await expectRejected(request([event(long)]), .limitExceeded(limit: "streamIDBytesMax", value: 201, max: 200))
        try await expectRejected(request([event("nodash")]), .invalidArgument(field: "streamID", reason: "\"nodash\" must be named category-id"))
        try await expectRejected(request([event("-x")]), .invalidArgument(field: "streamID", reason: "\"-x\" category is empty"))
        try await expectRejected(request([event("x-")]), .invalidArgument(field: "streamID", reason: "\"x-\" id after the category is empty"))
        try await expectRejected(request([event("x-\u{0}")]), .invalidArgument(field: "streamID", reason: "\"x-\\0\" must not contain NUL"))
        try await expectRejected(request([event("s-1")], expect: ["bad": .any]), .invalidArgument(field: "streamID", reason: "\"bad\" must be named category-id"))
    }

    @Test func tags() async throws {
        try await expectRejected(request([event("s-1", tags: (0..<33).map { "t\($0)" })]), .limitExceeded(limit: "tagsPerEventMax", value: 33, max: 32))
        try await expectRejected(request([event("s-1", tags: [String(repeating: "t", count: 201)])]), .limitExceeded(limit: "tagBytesMax", value: 201, max: 200))
        try await expectRejected(request([event("s-1", tags: [""])]), .invalidArgument(field: "tag", reason: "must not be empty"))
        try await expectRejected(request([event("s-1", tags: ["a\u{0}b"])]), .invalidArgument(field: "tag", reason: "must not contain NUL"))
        try await expectRejected(request([event("s-1", tags: ["a", "a"])]), .invalidArgument(field: "tags", reason: "an event carries each tag once"))
    }

    @Test func typesActorsAndQueries() async throws {
        try await expectRejected(request([event("s-1", "")]), .invalidArgument(field: "type", reason: "must not be empty"))
        try await expectRejected(request([event("s-1", String(repeating: "t", count: 129))]), .limitExceeded(limit: "typeBytesMax", value: 129, max: 128))
        var noActor = request([event("s-1")])
        noActor.metadata.actor = ""
        try await expectRejected(noActor, .invalidArgument(field: "actor", reason: "must not be empty"))
        let wide = EventQuery(items: (0..<33).map { .init(tags: ["t\($0)"]) })
        try await expectRejected(request([event("s-1")], condition: AppendCondition(failIfEventsMatch: wide, after: 0)),
                                 .limitExceeded(limit: "queryTermsMax", value: 33, max: 32))
    }

    @Test func unicodeNamesAndDataRoundTrip() async throws {
        let log = try TestLog()
        defer { log.remove() }
        let proposed = ProposedEvent(streamID: "huis-ö🏠", type: "bericht.geplaatst", tags: ["postcode:1234 AB", "emoji:🎉"],
                                     data: Data(#"{"tekst":"Grüße 🌍"}"#.utf8))
        _ = try await log.store.append(request([proposed]))
        let stored = try #require(try log.store.event(at: 1))
        #expect(stored.streamID == proposed.streamID && stored.tags == proposed.tags && stored.data == proposed.data)
        #expect(try log.store.readTag("emoji:🎉", limit: 1).count == 1)
    }
}
