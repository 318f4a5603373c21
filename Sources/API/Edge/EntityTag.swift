import EventLog
import Foundation
import HTTPTypes

/// The entity tags of the API (SPEC §1): an entity's `ETag` is its stream's version as a strong
/// tag, `"7"`, and a command's `If-Match` with it is an expected version the log checks inside
/// the append. Nothing else is ever issued, so any other tag can never match.
enum EntityTag {
    /// What an `If-Match` header asks of the entity's stream.
    enum Precondition: Equatable, Sendable {
        /// `*`: any current version. A missing entity is refused by the command itself (404).
        case anyVersion
        /// One of our tags: the stream must still be at this version.
        case version(UInt64)
        /// A well-formed tag this service never issues (a weak one, another's text): it cannot
        /// match any version, so the request fails its precondition without reaching the log.
        case unmatchable
    }

    /// The strong tag of stream version `version`.
    static func of(version: UInt64) -> String { "\"\(version)\"" }

    /// Reads an `If-Match` value: `*` or one entity tag (RFC 9110 §8.8.3). A list of several is
    /// refused too: the log checks one version per stream, and a client holds only one.
    static func precondition(ifMatch value: String) throws(Problem) -> Precondition {
        let text = value.trimmingCharacters(in: .whitespaces)
        if text == "*" { return .anyVersion }
        let weak = text.hasPrefix("W/")
        let quoted = weak ? text.dropFirst(2) : Substring(text)
        guard quoted.count >= 2, quoted.first == "\"", quoted.last == "\"" else { throw invalid(value) }
        let opaque = quoted.dropFirst().dropLast()
        // etagc: %x21 / %x23-7E / obs-text; a quote inside means a list of tags, or garbage.
        guard opaque.utf8.allSatisfy({ $0 == 0x21 || (0x23...0x7E).contains($0) || $0 >= 0x80 }) else { throw invalid(value) }
        // If-Match compares strongly: a weak tag never matches, nor does "007" for version 7.
        guard !weak, let version = UInt64(opaque), String(version) == opaque else { return .unmatchable }
        return .version(version)
    }

    /// The versions a command on the stream `entity` must find, from the request's `If-Match`;
    /// none without one. Throws 400 for a malformed header, 412 for one that cannot match. An
    /// empty value is an empty list (RFC 9110 §5.6.1), which asks nothing: as if absent.
    static func expectedVersions(of entity: String?, ifMatch: String?) throws(Problem) -> [String: ExpectedVersion] {
        guard let entity, let ifMatch, !ifMatch.trimmingCharacters(in: .whitespaces).isEmpty else { return [:] }
        switch try precondition(ifMatch: ifMatch) {
        case .anyVersion: return [:]
        case let .version(version): return [entity: .exact(version)]
        case .unmatchable: throw preconditionFailed
        }
    }

    /// 412 `precondition_failed`: the entity is no longer what the client's `If-Match` names.
    static let preconditionFailed = Problem(
        status: .preconditionFailed, code: "precondition_failed", title: "Precondition failed",
        detail: "the entity changed since the version If-Match names; read it again (its ETag) and retry if the change still applies")

    /// 400 `invalid_if_match`.
    static func invalid(_ value: String) -> Problem {
        Problem(status: .badRequest, code: "invalid_if_match", title: "Invalid If-Match",
                detail: "If-Match must be * or one entity tag as an ETag gives it, such as \"3\"")
    }
}
