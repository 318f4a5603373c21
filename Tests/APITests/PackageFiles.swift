import Foundation

/// Files of this package that tests read or run (the README, tools), found from this file's path.
enum PackageFiles {
    /// The package's root: this file is at `Tests/APITests/` below it.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}
