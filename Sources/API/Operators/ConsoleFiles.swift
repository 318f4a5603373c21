import Foundation

/// The operator console's files (`Operators/console/` in the bundle): static HTML, CSS and
/// JavaScript modules, read once and served from memory. Only these names are served; a path
/// is never joined to a request's text.
struct ConsoleFiles: Sendable {
    /// How a file is sent.
    enum Kind: Sendable, Equatable {
        case html, css, javascript
    }

    struct File: Sendable {
        let kind: Kind
        let bytes: Data
    }

    /// The console's page.
    static let page = "index.html"
    /// `default-src 'none'`: the page runs only its own scripts and styles and fetches only from
    /// this server, so injected markup (were there any) could neither run nor send anything away.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    /// A browser revalidates each time, so a new server's console is the one it runs.
    static let cacheControl = "no-cache"

    let files: [String: File]

    /// The files of the bundle's `console` directory.
    static func load() throws -> ConsoleFiles {
        guard let directory = Bundle.module.url(forResource: "console", withExtension: nil) else { throw CocoaError(.fileNoSuchFile) }
        var files: [String: File] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            let kind: Kind
            switch (name as NSString).pathExtension {
            case "html": kind = .html
            case "css": kind = .css
            case "js": kind = .javascript
            default: continue
            }
            files[name] = File(kind: kind, bytes: try Data(contentsOf: directory.appendingPathComponent(name)))
        }
        precondition(files[page] != nil, "the console's bundle has its page")
        return ConsoleFiles(files: files)
    }
}
