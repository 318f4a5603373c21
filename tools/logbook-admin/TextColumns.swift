/// Small aligned tables for the text reports of `stats` and `verify`, whose rows are all known
/// before printing (unlike event listings, which stream).
enum TextColumns {
    /// `rows` with every column padded to its widest cell; `numeric` columns align right.
    static func render(_ rows: [[String]], numeric: Set<Int> = [], indent: String = "") -> [String] {
        var widths: [Int] = []
        for row in rows {
            for (column, cell) in row.enumerated() {
                if column == widths.count { widths.append(0) }
                widths[column] = max(widths[column], cell.count)
            }
        }
        return rows.map { row in
            let cells = row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return numeric.contains(column) ? padding + cell : cell + padding
            }
            var line = indent + cells.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// `bytes` for a reader, with the exact figure kept for scripts and comparisons.
    static func byteCount(_ bytes: Int) -> String {
        let units = ["bytes", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        guard unit > 0 else { return "\(bytes) bytes" }
        let rounded = (value * 10).rounded() / 10
        return "\(rounded) \(units[unit]) (\(bytes) bytes)"
    }
}
