import Foundation

/// Finds executables SwiftPM built next to the test bundle (the test target depends on them, so
/// they are built before the tests run, whatever the scratch path).
enum BuiltProducts {
    static func executable(_ name: String) throws -> URL {
        let starts = [Bundle.main.executableURL, Bundle.main.bundleURL, URL(fileURLWithPath: CommandLine.arguments[0])]
        for start in starts.compactMap({ $0 }) {
            var directory = start.deletingLastPathComponent()
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                directory = directory.deletingLastPathComponent()
            }
        }
        throw NotBuilt(name: name, searchedFrom: Bundle.main.bundlePath)
    }

    struct NotBuilt: Error, CustomStringConvertible {
        let name: String
        let searchedFrom: String
        var description: String { "\(name) not found near \(searchedFrom); build it with swift build" }
    }
}
