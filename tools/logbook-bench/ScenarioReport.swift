/// One measured value, formatted for a table or written as a JSON number.
enum Figure: Encodable, Sendable {
    case count(Int)
    case rate(Double)
    case seconds(Double)
    case milliseconds(Double)
    case ratio(Double)
    case text(String)

    /// How the value reads in a table: counts and rates with thousands separators.
    var formatted: String {
        switch self {
        case .count(let value): Self.grouped(value)
        case .rate(let value): value >= 100 ? Self.grouped(Int(value.rounded())) : Self.fixed(value, 1)
        case .seconds(let value): Self.fixed(value, 2)
        case .milliseconds(let value): Self.fixed(value, 3)
        case .ratio(let value): Self.fixed(value, 2)
        case .text(let value): value
        }
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .count(let value): try container.encode(value)
        case .rate(let value), .seconds(let value), .milliseconds(let value), .ratio(let value):
            try container.encode((value * 1_000).rounded() / 1_000)
        case .text(let value): try container.encode(value)
        }
    }

    private static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return value < 0 ? "-" + out : out
    }

    private static func fixed(_ value: Double, _ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        let whole = grouped(scaled / Int(scale))
        let fraction = String(abs(scaled % Int(scale)))
        return whole + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }
}

/// A table column: `key` names it in JSON, `title` heads it in text.
struct Column: Sendable {
    let key: String
    let title: String
}

/// What one scenario measured: a table of rows plus free-form notes, and the peak RSS when it
/// ended.
struct ScenarioReport: Encodable, Sendable {
    let scenario: String
    let summary: String
    let columns: [Column]
    var rows: [[Figure]] = []
    /// Derived figures and target checks, one line each.
    var notes: [String] = []
    var peakRSSKiB = 0
    /// Resident memory when the scenario ended: heap versus pages of the mapped log.
    var residentAnonymousKiB: Int?
    var residentFileKiB: Int?

    init(scenario: String, summary: String, columns: [Column]) {
        self.scenario = scenario
        self.summary = summary
        self.columns = columns
    }

    mutating func add(_ row: [Figure]) {
        precondition(row.count == columns.count, "row has \(row.count) cells for \(columns.count) columns")
        rows.append(row)
    }

    /// Stamps the process's peak RSS; call when the scenario is done.
    mutating func finish() {
        peakRSSKiB = ResourceUsage.peakResidentKiB
        let split = ResourceUsage.currentResidentSplitKiB
        residentAnonymousKiB = split?.anonymous
        residentFileKiB = split?.file
    }

    private enum Key: String, CodingKey { case scenario, summary, rows, notes, peakRSSKiB, residentAnonymousKiB, residentFileKiB }

    /// Rows become objects keyed by column, so a consumer need not know the column order.
    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(scenario, forKey: .scenario)
        try container.encode(summary, forKey: .summary)
        let objects = rows.map { row in
            Dictionary(uniqueKeysWithValues: zip(columns.map(\.key), row))
        }
        try container.encode(objects, forKey: .rows)
        try container.encode(notes, forKey: .notes)
        try container.encode(peakRSSKiB, forKey: .peakRSSKiB)
        try container.encodeIfPresent(residentAnonymousKiB, forKey: .residentAnonymousKiB)
        try container.encodeIfPresent(residentFileKiB, forKey: .residentFileKiB)
    }

    /// The report as an aligned text table: text left-aligned, numbers right-aligned.
    var text: String {
        let cells = rows.map { $0.map(\.formatted) }
        let widths = columns.indices.map { column in
            max(columns[column].title.count, cells.map { $0[column].count }.max() ?? 0)
        }
        func line(_ values: [String], leftAligned: (Int) -> Bool) -> String {
            values.indices.map { column in
                let padding = String(repeating: " ", count: widths[column] - values[column].count)
                return leftAligned(column) ? values[column] + padding : padding + values[column]
            }.joined(separator: "  ")
        }
        let isText = { (column: Int) in rows.first.map { if case .text = $0[column] { true } else { false } } ?? true }
        var lines = ["== \(scenario): \(summary)"]
        lines.append(line(columns.map(\.title), leftAligned: isText))
        lines += cells.map { line($0, leftAligned: isText) }
        lines += notes.map { "   \($0)" }
        var memory = "   peak RSS: \(Figure.count(peakRSSKiB).formatted) KiB (ru_maxrss)"
        if let residentAnonymousKiB, let residentFileKiB {
            memory += "; resident now: \(Figure.count(residentAnonymousKiB).formatted) KiB heap, \(Figure.count(residentFileKiB).formatted) KiB file-backed (mapped log)"
        }
        lines.append(memory)
        return lines.joined(separator: "\n")
    }
}
