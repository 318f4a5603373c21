import EventLog
import Foundation
import HTTPTypes

/// The entity tags of the API (SPEC §1): an entity's `ETag` is its stream's version as a strong
/// tag, `"7"`, and a command's `If-Match` with it is an expected version the log checks inside
/// the append. A read-model GET's tag is a digest of its body (`NotModifiedMiddleware`), never a
/// version, so as an `If-Match` it can never match.
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
        guard opaque.utf8.allSatisfy(isETagCharacter) else { throw invalid(value) }
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

    /// What an `If-None-Match` value names (RFC 9110 §13.1.2).
    enum Candidates: Equatable, Sendable {
        /// `*`: any current representation.
        case any
        /// The opaque parts of a list of tags, without their `W/` and quotes: the header
        /// compares weakly, so `W/"x"` names `"x"`.
        case opaque([String])
    }

    /// Reads an `If-None-Match` value: `*` or a comma-separated list of entity tags, empty
    /// elements allowed (RFC 9110 §5.6.1). Nil when malformed: a GET then answers in full, as
    /// without the header, since ignoring a validator only costs the client a body (unlike an
    /// `If-Match`, whose 400 keeps a command from running unprotected).
    static func candidates(ifNoneMatch value: String) -> Candidates? {
        let bytes = Array(value.utf8)
        var tags: [String] = []
        var index = 0
        func skip(_ skipped: (UInt8) -> Bool) { while index < bytes.count, skipped(bytes[index]) { index += 1 } }
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        skip(isSpace)
        if index < bytes.count, bytes[index] == UInt8(ascii: "*") {
            index += 1
            skip(isSpace)
            return index == bytes.count ? .any : nil
        }
        while true {
            skip { isSpace($0) || $0 == UInt8(ascii: ",") }
            guard index < bytes.count else { break }
            if bytes[index] == UInt8(ascii: "W") {
                guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") else { return nil }
                index += 2
            }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            let start = index + 1
            index = start
            skip(isETagCharacter)
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            tags.append(String(decoding: bytes[start..<index], as: UTF8.self))
            index += 1
            skip(isSpace)
            guard index == bytes.count || bytes[index] == UInt8(ascii: ",") else { return nil }
        }
        return tags.isEmpty ? nil : .opaque(tags)
    }

    /// Whether `ifNoneMatch` names `tag` (a tag as an `ETag` header gives it), by the weak
    /// comparison of RFC 9110 §8.8.3.2; a malformed value names nothing.
    static func ifNoneMatch(_ ifNoneMatch: String, names tag: String) -> Bool {
        guard let held = candidates(ifNoneMatch: ifNoneMatch) else { return false }
        guard case let .opaque(current)? = candidates(ifNoneMatch: tag), current.count == 1 else { return false }
        switch held {
        case .any: return true
        case let .opaque(tags): return tags.contains(current[0])
        }
    }

    /// etagc: %x21 / %x23-7E / obs-text.
    private static func isETagCharacter(_ byte: UInt8) -> Bool {
        byte == 0x21 || (0x23...0x7E).contains(byte) || byte >= 0x80
    }
}
