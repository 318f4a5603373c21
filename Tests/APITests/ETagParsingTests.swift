import CommandHandling
import EventLog
import EventSourcing
import Foundation
import OpenAPIRuntime
import Testing
@testable import API

/// Reading `If-Match` (RFC 9110 §13.1.1, strong comparison) and the 412 a changed entity gets, and
/// `If-None-Match` (§13.1.2, weak comparison).
@Suite("ETag: If-Match and If-None-Match values")
struct ETagParsingTests {
    private func precondition(_ value: String) -> Result<EntityTag.Precondition, Problem> {
        do throws(Problem) {
            return .success(try EntityTag.precondition(ifMatch: value))
        } catch {
            return .failure(error)
        }
    }

    @Test func ourTagsAndTheWildcardAreRead() {
        #expect(precondition(EntityTag.of(version: 7)) == .success(.version(7)))
        #expect(precondition(" \"0\" ") == .success(.version(0)))
        #expect(precondition("*") == .success(.anyVersion))
    }

    @Test func wellFormedTagsWeNeverIssueCannotMatch() {
        for value in ["W/\"7\"", "\"007\"", "\"+7\"", "\"abc\"", "\"\"", "\"18446744073709551616\"", "\"é\"", "W/\"a,b\"", "\"1,2\""] {
            #expect(precondition(value) == .success(.unmatchable), "\(value)")
        }
    }

    @Test func malformedValuesAre400() {
        for value in ["7", "\"7", "7\"", "\"1\", \"2\"", "W/7", "**", "\"a b\"", "", "\"", "w/\"7\""] {
            guard case let .failure(problem) = precondition(value) else {
                Issue.record("\(value) was accepted")
                continue
            }
            #expect(problem.status == 400 && problem.code == "invalid_if_match", "\(value)")
        }
    }

    @Test func theRequestsIfMatchBecomesTheEntitysExpectedVersion() throws {
        #expect(try EntityTag.expectedVersions(of: "house-1", ifMatch: "\"3\"") == ["house-1": .exact(3)])
        #expect(try EntityTag.expectedVersions(of: "house-1", ifMatch: "*") == [:])
        #expect(try EntityTag.expectedVersions(of: "house-1", ifMatch: nil) == [:])
        #expect(try EntityTag.expectedVersions(of: "house-1", ifMatch: " ") == [:], "an empty list asks nothing")
        #expect(try EntityTag.expectedVersions(of: nil, ifMatch: "\"3\"") == [:], "a route without an entity ignores it")
        #expect(throws: EntityTag.preconditionFailed) { try EntityTag.expectedVersions(of: "house-1", ifMatch: "W/\"3\"") }
    }

    @Test func anIfNoneMatchListIsReadTagByTag() {
        #expect(EntityTag.candidates(ifNoneMatch: "*") == .any)
        #expect(EntityTag.candidates(ifNoneMatch: " * ") == .any)
        #expect(EntityTag.candidates(ifNoneMatch: "\"7\"") == .opaque(["7"]))
        #expect(EntityTag.candidates(ifNoneMatch: "W/\"a\", \"b\"") == .opaque(["a", "b"]), "weak ones by their opaque part")
        #expect(EntityTag.candidates(ifNoneMatch: " ,\"a\",,\t\"\" , ") == .opaque(["a", ""]), "empty elements are skipped")
        #expect(EntityTag.candidates(ifNoneMatch: "\"a,b\"") == .opaque(["a,b"]), "a comma inside quotes is the tag's")
        for malformed in ["", " , ", "7", "\"7", "W/7", "w/\"7\"", "\"a\" \"b\"", "*, \"a\"", "**", "\"a b\"", "W/"] {
            #expect(EntityTag.candidates(ifNoneMatch: malformed) == nil, "\(malformed.debugDescription)")
        }
    }

    @Test func ifNoneMatchComparesWeakly() {
        #expect(EntityTag.ifNoneMatch("W/\"7\"", names: "\"7\""))
        #expect(EntityTag.ifNoneMatch("\"1\", \"7\"", names: "\"7\""))
        #expect(EntityTag.ifNoneMatch("*", names: "\"7\""))
        #expect(!EntityTag.ifNoneMatch("\"07\"", names: "\"7\""))
        #expect(!EntityTag.ifNoneMatch("7", names: "\"7\""), "malformed: names nothing")
        #expect(!EntityTag.ifNoneMatch("*", names: "7"), "no tag to name")
    }

    @Test func aChangedEntityIs412NotAConflict() {
        let problem = ProblemMapping.problem(
            for: CommandFailure<SampleRefusal>.preconditionFailed(streamID: "house-1", expected: .exact(2), actual: 3))
        #expect(problem.status == 412 && problem.code == "precondition_failed")
    }
}

/// A domain error to instantiate `CommandFailure` with.
private enum SampleRefusal: DomainError {
    case refused
    var code: String { "refused" }
    var kind: DomainErrorKind { .conflict }
    var detail: String { "refused" }
}

/// The ETag an entity GET answers is its stream's version as of a log position (the one the read
/// models hold), never a newer one the body may not show yet.
@Suite("ETag: stream version as of the projected position", .timeLimit(.minutes(2)))
struct ETagAsOfTests {
    @Test func theTagIsTheVersionOfTheStreamsLastEventAtOrBeforeThePosition() async throws {
        let server = try TestServer()
        defer { server.remove() }
        let api = LogbookAPI(runtime: server.runtime, document: try OpenAPIDocument.container(), console: try ConsoleFiles.load())
        // house-1 gets every third event of 60: versions 0...19 at positions 3, 6, …, 60.
        for position in 1...60 {
            let stream = position.isMultiple(of: 3) ? "house-1" : "other-\(position)"
            _ = try await server.runtime.log.lmdb.append(AppendRequest(
                events: [ProposedEvent(streamID: stream, type: "test.happened", data: Data("{}".utf8))], metadata: AppendMetadata(actor: "u")))
        }
        #expect(try await api.eTag(of: "house-1", asOf: 60) == "\"19\"", "caught up: the head, in one read")
        #expect(try await api.eTag(of: "house-1", asOf: 59) == "\"18\"")
        #expect(try await api.eTag(of: "house-1", asOf: 7) == "\"1\"", "more than a page behind the head")
        #expect(try await api.eTag(of: "house-1", asOf: 3) == "\"0\"")
        #expect(try await api.eTag(of: "house-1", asOf: 2) == nil, "nothing of the stream there yet")
        #expect(try await api.eTag(of: "house-2", asOf: 60) == nil, "no such stream")
    }
}
