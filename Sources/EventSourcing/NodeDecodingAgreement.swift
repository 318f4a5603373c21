import Foundation

/// The check that a `NodeDecodable` payload reads what its `Codable` path reads, for the domains'
/// tests (as `GivenWhenThen` is theirs): an `init(nodes:)` written by hand must never make the
/// log fold differently from Foundation, nor accept what Foundation refuses.
///
/// From one sample it derives documents property-style: the sample's JSON with every string,
/// number and flag replaced by random ones (Unicode, escapes, extremes), and each of those with
/// one member removed, nulled, given a value of another JSON type, or joined by an unknown
/// member, in every object of the document. For each it decodes through `init(nodes:)` and
/// through Foundation: whatever `init(nodes:)` returns, Foundation must return too, and
/// `EventJSON.decode` must succeed exactly when Foundation does, with the same value.
public enum NodeDecodingAgreement {
    /// The documents on which the paths disagree, each with how; empty when they agree.
    /// `rounds` random variants of `sample` are checked, each with all its mutations.
    public static func disagreements<T: NodeDecodable & Encodable & Equatable>(
        _ sample: T, rounds: Int, using random: inout some RandomNumberGenerator
    ) throws -> [String] {
        let original = try EventJSON.encode(sample)
        var problems: [String] = []
        if (try? EventJSONDecoder.decodeFromNodes(T.self, from: original)) != sample {
            problems.append("init(nodes:) does not read back the encoded sample: \(text(original))")
        }
        return problems + (try disagreements(reading: T.self, from: sample, rounds: rounds, using: &random))
    }

    /// The same check for a type that reads part of another payload (a review's ids): the
    /// documents are derived from `sample`'s JSON and read as `T`. `init(nodes:)` must read the
    /// sample itself, as Foundation does.
    public static func disagreements<T: NodeDecodable & Equatable>(
        reading type: T.Type, from sample: some Encodable, rounds: Int, using random: inout some RandomNumberGenerator
    ) throws -> [String] {
        let original = try EventJSON.encode(sample)
        var problems: [String] = []
        let fromSample = try? EventJSONDecoder.decodeFromNodes(T.self, from: original)
        if fromSample == nil || fromSample != (try? EventJSON.foundationDecode(T.self, from: original)) {
            problems.append("init(nodes:) does not read the sample as Foundation does: \(text(original))")
        }
        let tree = try JSONSerialization.jsonObject(with: original)
        for _ in 0..<rounds {
            let variant = randomized(tree, &random)
            for document in [variant] + mutations(of: variant) {
                let data = try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
                let reference = try? EventJSON.foundationDecode(T.self, from: data)
                if let fromNodes = try? EventJSONDecoder.decodeFromNodes(T.self, from: data), fromNodes != reference {
                    problems.append("init(nodes:) read \(fromNodes), Foundation \(reference.map { "\($0)" } ?? "refused"): \(text(data))")
                }
                let decoded = try? EventJSON.decode(T.self, from: data)
                if decoded != reference {
                    problems.append("EventJSON.decode gave \(decoded.map { "\($0)" } ?? "an error"), Foundation \(reference.map { "\($0)" } ?? "an error"): \(text(data))")
                }
            }
        }
        return problems
    }

    private static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    private static let texts = [
        "", "plain", "quote \" backslash \\ slash /", "tab\tnewline\n", "\u{0}\u{1F}", "émoji 🎉 𝄞", "\u{202E}bidi", "日本語",
        String(repeating: "x", count: 300), "2026-11-21T20:30:00.250Z", "2026-11-21T20:30:00Z", "rating", "yesNo", "text",
    ]
    private static var numbers: [Any] { [0, 1, -1, 5, 100, Int.max, Int.min, 1.5, -0.0, 1e300, UInt64.max] }

    /// `tree` with each leaf replaced at random by one of its own kind (a date string stays a
    /// date half of the time, so that the variants still decode).
    private static func randomized(_ tree: Any, _ random: inout some RandomNumberGenerator) -> Any {
        switch tree {
        case let object as [String: Any]:
            return object.mapValues { randomized($0, &random) }
        case let array as [Any]:
            let grown = array + (array.first.map { [$0] } ?? [])  // one element more, at times
            return (Bool.random(using: &random) ? grown : array).map { randomized($0, &random) }
        case let string as String:
            return Bool.random(using: &random) ? string : texts.randomElement(using: &random)!
        case let number as NSNumber where String(cString: number.objCType) == "c":  // JSON's true and false
            return Bool.random(using: &random)
        case is NSNumber:
            return Bool.random(using: &random) ? tree : numbers.randomElement(using: &random)!
        default:
            return tree
        }
    }

    /// Every document one change away from `tree`: in each object, each member removed,
    /// nulled or of another type, and an unknown member added; the document of another type.
    private static func mutations(of tree: Any) -> [Any] {
        var results: [Any] = [[Any](), "text", 1]
        switch tree {
        case let object as [String: Any]:
            var extra = object
            extra["zzUnknown"] = 1
            results.append(extra)
            for (key, value) in object {
                var changed = object
                changed[key] = nil
                results.append(changed)
                for other in [NSNull(), otherKind(of: value)] {
                    changed[key] = other
                    results.append(changed)
                }
                for nested in mutations(of: value).dropFirst(3) {
                    changed[key] = nested
                    results.append(changed)
                }
            }
        case let array as [Any]:
            for (index, element) in array.enumerated() {
                for nested in mutations(of: element).dropFirst(3) + [NSNull()] {
                    var changed = array
                    changed[index] = nested
                    results.append(changed)
                }
            }
        default:
            break
        }
        return results
    }

    private static func otherKind(of value: Any) -> Any {
        switch value {
        case is String: 7
        case is [Any]: ["member": 1] as [String: Any]
        case is [String: Any]: [1]
        default: "7"
        }
    }
}
