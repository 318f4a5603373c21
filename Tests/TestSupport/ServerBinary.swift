import Foundation

/// The built `logbook` executable, next to the test bundle (the test target depends on it), or
/// another of the package's executables, `named`.
public enum ServerBinary {
    public static func url(named name: String = "logbook") throws -> URL {
        let starts = [Bundle.main.executableURL, Bundle.main.bundleURL, URL(fileURLWithPath: CommandLine.arguments[0])]
        for start in starts.compactMap({ $0 }) {
            var directory = start.deletingLastPathComponent()
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent(name)
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                   FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                directory = directory.deletingLastPathComponent()
            }
        }
        throw CocoaError(.fileNoSuchFile)
    }
}
