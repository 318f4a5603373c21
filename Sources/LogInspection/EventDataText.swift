import Foundation

/// An event's data as the operator tools show it: the JSON as stored, or nothing when the bytes
/// are not JSON (the tools then show them as base64).
///
/// Personal fields stay as the log holds them, sealed (`sealed:v1:…`, ADR 0004): the tools never
/// open them, so an erased user's data stays unreadable here as everywhere.
public enum EventDataText {
    /// The data as JSON text fit for one line, or nil when it is not JSON. The text is kept as
    /// stored, not re-serialised, so numbers and key order come out exactly as written; raw line
    /// breaks can only be whitespace between tokens in valid JSON, so blanking them is lossless.
    public static func json(_ data: Data) -> String? {
        // Requiring UTF-8 excludes the UTF-16/32 encodings JSONSerialization also accepts.
        guard !data.isEmpty, let text = String(validating: data, as: UTF8.self), !text.hasPrefix("\u{FEFF}"),
              (try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)) != nil
        else { return nil }
        var line = ""
        line.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar == "\n" || scalar == "\r" { line += " " } else { line.unicodeScalars.append(scalar) }
        }
        return line.trimmingCharacters(in: .whitespaces)
    }
}
