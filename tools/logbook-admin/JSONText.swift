/// JSON string literals, written by hand because event lines embed the event's own JSON data
/// verbatim, which `JSONEncoder` cannot do.
enum JSONText {
    /// `text` as a JSON string literal.
    static func quoted(_ text: String) -> String {
        var result = "\""
        result.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// An object from already-encoded values, keeping the fields in the order given.
    static func object(_ fields: [(name: String, json: String)]) -> String {
        "{" + fields.map { quoted($0.name) + ":" + $0.json }.joined(separator: ",") + "}"
    }
}
