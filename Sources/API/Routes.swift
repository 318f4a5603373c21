import Foundation

/// What every app's routes share.
enum Routes {
    /// A new id: server-made, so clients never choose keys of the read models.
    static func newID() -> String { UUID().uuidString.lowercased() }

    /// Only JSON bodies are declared; the generated code refuses others before a handler runs.
    static let unsupportedBody = Problem(status: .unsupportedMediaType, code: "unsupported_media_type", title: "Unsupported media type",
                                         detail: "send the body as application/json")
}
