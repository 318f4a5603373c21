import Foundation

/// Files of this package that tests read or run (the README, tools), found from this file's path.
public enum PackageFiles {
    /// The package's root: this file is at `Tests/TestSupport/` below it.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}
