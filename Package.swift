// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Logbook",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "logbook-admin", targets: ["logbook-admin"]),
        .executable(name: "logbook-bench", targets: ["logbook-bench"]),
        .library(name: "EventLog", targets: ["EventLog"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CLMDB",
            path: "Sources/CLMDB",
            pkgConfig: "lmdb",
            providers: [.apt(["liblmdb-dev"])]
        ),
        .target(name: "LMDB", dependencies: ["CLMDB"]),
        // CRC-32C with the CPU's instruction; EventLog falls back to tables without it.
        .target(name: "CCRC32C"),
        .target(name: "EventLog", dependencies: ["LMDB", "CCRC32C"]),
        // Pure: the decider shape, command metadata, domain events and errors. No dependencies.
        .target(name: "EventSourcing"),
        .target(name: "Accounts", dependencies: ["EventSourcing"]),
        .target(name: "Household", dependencies: ["EventSourcing"]),
        // The runtime: commands → decisions → conditional appends.
        .target(name: "CommandHandling", dependencies: ["EventLog", "EventSourcing"]),
        // Read models folded from the log, in their own LMDB environment.
        .target(name: "Projections", dependencies: ["EventLog", "LMDB"], path: "projections"),
        .executableTarget(
            name: "logbook-admin",
            dependencies: ["EventLog", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "tools/logbook-admin"
        ),
        .executableTarget(
            name: "logbook-bench",
            dependencies: ["EventLog", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "tools/logbook-bench"
        ),
        // Appends durably and prints every acknowledged position; the crash test kills it with SIGKILL.
        .executableTarget(
            name: "logbook-crash-writer",
            dependencies: ["EventLog"],
            path: "Tests/CrashWriter"
        ),
        .testTarget(name: "LMDBTests", dependencies: ["LMDB"]),
        .testTarget(name: "EventSourcingTests", dependencies: ["EventSourcing"]),
        .testTarget(name: "AccountsTests", dependencies: ["Accounts", "EventSourcing"]),
        .testTarget(name: "HouseholdTests", dependencies: ["Household", "EventSourcing"]),
        .testTarget(name: "ProjectionsTests", dependencies: ["Projections", "EventLog"]),
        .testTarget(name: "CommandHandlingTests", dependencies: ["CommandHandling", "EventLog", "EventSourcing"]),
        .testTarget(
            name: "EventLogTests",
            dependencies: ["EventLog", "LMDB", "logbook-crash-writer", "logbook-admin"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
