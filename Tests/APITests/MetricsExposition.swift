import Foundation
import HummingbirdTesting
import Testing

/// A Prometheus text exposition (format 0.0.4), parsed strictly enough that a malformed line
/// fails the test: `# TYPE` per family, then samples `name{label="value",…} number`.
struct MetricsExposition {
    /// One sample line.
    struct Sample {
        let name: String
        let labels: [String: String]
        let value: Double
    }

    /// Family name → its `# TYPE`.
    private(set) var types: [String: String] = [:]
    private(set) var samples: [Sample] = []

    struct Malformed: Error, CustomStringConvertible {
        let line: String
        var description: String { "malformed exposition line: \(line)" }
    }

    init(_ text: String) throws {
        for line in text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) {
            if line.hasPrefix("# TYPE ") {
                let parts = line.split(separator: " ")
                guard parts.count == 4, ["counter", "gauge", "histogram", "summary", "untyped"].contains(parts[3]) else { throw Malformed(line: line) }
                types[String(parts[2])] = String(parts[3])
            } else if line.hasPrefix("#") {
                continue
            } else {
                samples.append(try Self.sample(line))
            }
        }
    }

    private static func sample(_ line: String) throws -> Sample {
        guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { throw Malformed(line: line) }
        let series = line[..<space]
        guard let brace = series.firstIndex(of: "{") else {
            guard isName(series) else { throw Malformed(line: line) }
            return Sample(name: String(series), labels: [:], value: value)
        }
        guard series.last == "}", isName(series[..<brace]) else { throw Malformed(line: line) }
        var labels: [String: String] = [:]
        var rest = series[series.index(after: brace)..<series.index(before: series.endIndex)]
        while !rest.isEmpty {
            guard let equals = rest.firstIndex(of: "="), isName(rest[..<equals]),
                  rest[rest.index(after: equals)...].first == "\"" else { throw Malformed(line: line) }
            var cursor = rest.index(equals, offsetBy: 2)
            var value = ""
            while cursor < rest.endIndex, rest[cursor] != "\"" {
                if rest[cursor] == "\\" { cursor = rest.index(after: cursor) }
                guard cursor < rest.endIndex else { throw Malformed(line: line) }
                value.append(rest[cursor])
                cursor = rest.index(after: cursor)
            }
            guard cursor < rest.endIndex else { throw Malformed(line: line) }
            labels[String(rest[..<equals])] = value
            rest = rest[rest.index(after: cursor)...]
            if rest.first == "," { rest = rest.dropFirst() }
        }
        return Sample(name: String(series[..<brace]), labels: labels, value: value)
    }

    private static func isName(_ text: Substring) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ":") }
    }

    /// The value of the sample `name` whose labels include `labels`; nil when none (several: the sum).
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        let matching = samples.filter { sample in sample.name == name && labels.allSatisfy { sample.labels[$0.key] == $0.value } }
        return matching.isEmpty ? nil : matching.reduce(0) { $0 + $1.value }
    }

    /// The samples of family `name` (for a histogram: its `_bucket`, `_sum` and `_count` series).
    func series(of family: String) -> [Sample] {
        samples.filter { $0.name == family || $0.name == family + "_bucket" || $0.name == family + "_sum" || $0.name == family + "_count" }
    }
}

extension TestClientProtocol {
    /// `GET /metrics` with the operator's token, parsed; expects 200 and the 0.0.4 text format.
    func metrics(token: String) async throws -> MetricsExposition {
        let reply = try await send(.get, "/metrics", token: token)
        try #require(reply.status == .ok, "\(reply.status): \(reply.text)")
        #expect(reply.headers[.contentType] == "text/plain; version=0.0.4")
        return try MetricsExposition(reply.text)
    }
}
