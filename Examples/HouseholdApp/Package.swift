// swift-tools-version: 6.1
import PackageDescription

// An app's use of LogbookClient, as a package of its own: it sees only the library's product, so
// its build holds no server module (.ci/run checks the build directory and runs the program).
let package = Package(
    name: "HouseholdApp",
    platforms: [.macOS(.v15), .iOS(.v17)],
    dependencies: [
        // An app outside this repository names it by URL instead: .package(url: "<repository URL>", branch: "main").
        .package(name: "Logbook", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "household-app",
            dependencies: [
                .product(name: "LogbookClient", package: "Logbook"),
            ],
            path: "Sources/HouseholdApp"
        ),
    ],
    swiftLanguageModes: [.v6]
)
