// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Logbook",
    platforms: [.macOS(.v15), .iOS(.v17)],
    products: [
        .executable(name: "logbook", targets: ["logbook"]),
        .executable(name: "logbook-admin", targets: ["logbook-admin"]),
        .executable(name: "logbook-bench", targets: ["logbook-bench"]),
        .executable(name: "logbook-budgets", targets: ["logbook-budgets"]),
        .library(name: "EventLog", targets: ["EventLog"]),
        // The apps' Swift client (SPEC §3b): no server module in its graph (CI builds
        // Examples/HouseholdApp on its own and checks what it links: Examples/HouseholdApp/check.sh).
        .library(name: "LogbookClient", targets: ["LogbookClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-openapi-generator", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird", from: "2.1.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // LogbookClient's transport: AsyncHTTPClient streams response bodies on Linux too (the live
        // stream needs it), where URLSession's transport buffers them.
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // The client benchmark's raw requests read NIO's buffers.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // Percentiles of the benchmarks' latencies.
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        // Counts the heap allocations of the CI budgets (tools/budgets): the interposer alone, not
        // the benchmark framework around it, whose runner measures time beside the counts.
        .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.6.1"),
        // The tests' child processes (Tests/TestSupport).
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
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
        // `sync_file_range`, which Swift's Glibc module does not declare: the write-ahead mode
        // starts the writeback of LMDB's unsynced commits early (docs/decisions/0006).
        .target(name: "CWriteback"),
        // glibc's `malloc_trim`, likewise undeclared: the end of a long catch-up gives the freed
        // batches' memory back (projections/Engine/FreedMemory.swift).
        .target(name: "CHeapTrim"),
        // Crypto: SHA-256 for the hash chain over the log (docs/record-format.md).
        .target(name: "EventLog", dependencies: ["LMDB", "CCRC32C", "CWriteback", .product(name: "Crypto", package: "swift-crypto")]),
        // The log's second backend (SPEC §3a): the same records, chain and guarantees in PostgreSQL,
        // shared by many servers.
        .target(
            name: "PostgresEventLog",
            dependencies: ["EventLog", "EventSourcing", .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "Logging", package: "swift-log")]
        ),
        // The operators' reading of the log, shared by logbook-admin and the admin API: filters,
        // bounded scans by page, the audit trail.
        .target(name: "LogInspection", dependencies: ["EventLog"]),
        // Pure: the decider shape, command metadata, domain events and errors.
        // Crypto: personal data in events is sealed per user (crypto-shredding, ADR 0004).
        .target(name: "EventSourcing", dependencies: [.product(name: "Crypto", package: "swift-crypto")]),
        .target(name: "Accounts", dependencies: ["EventSourcing"]),
        .target(name: "Household", dependencies: ["EventSourcing"]),
        .target(name: "Quiz", dependencies: ["EventSourcing"]),
        .target(name: "Neighbourhood", dependencies: ["EventSourcing"]),
        .target(name: "Workplace", dependencies: ["EventSourcing"]),
        .target(name: "Albums", dependencies: ["EventSourcing"]),
        // Pure: the blob.uploaded event, image types and sniffing, the upload decider.
        .target(name: "Blobs", dependencies: ["EventSourcing"]),
        // Image files beside the log, content-addressed (data/blobs/): durable writes, collection.
        .target(name: "BlobStore", dependencies: ["Blobs", .product(name: "Crypto", package: "swift-crypto")]),
        // The runtime: commands → decisions → conditional appends.
        .target(name: "CommandHandling", dependencies: ["EventLog", "EventSourcing"]),
        // Read models folded from the log, in their own LMDB environment.
        .target(
            name: "Projections",
            dependencies: ["EventLog", "LMDB", "CHeapTrim", "EventSourcing", "Household", "Accounts", "Quiz", "Neighbourhood", "Workplace", "Albums", "Blobs"],
            path: "projections"
        ),
        // HTTP: spec-first routes (openapi.yaml → generated types), problem+json, composition.
        .target(
            name: "API",
            dependencies: [
                "EventLog", "PostgresEventLog", "EventSourcing", "CommandHandling", "Projections", "Accounts", "Quiz", "Neighbourhood", "Workplace",
                "Albums", "Blobs", "BlobStore", "LogInspection",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            resources: [.copy("openapi.yaml"), .copy("quiz-starter-bank.json"), .copy("Operators/console")],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        // The apps' client: operations generated from the same openapi.yaml (a symlink to API's),
        // a façade for sessions, exactly-once commands, the outbox, live updates and watched queries.
        .target(
            name: "LogbookClient",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        .executableTarget(
            name: "logbook",
            dependencies: ["API", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "logbook-admin",
            dependencies: [
                "EventLog", "PostgresEventLog", "EventSourcing", "Household", "Projections", "Accounts", "Quiz", "CommandHandling", "Blobs", "BlobStore",
                "LogInspection", "LMDB",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "tools/logbook-admin"
        ),
        .executableTarget(
            name: "logbook-bench",
            dependencies: [
                "EventLog", "PostgresEventLog", "EventSourcing", "Household", "Quiz", "Neighbourhood", "Workplace", "Accounts", "Albums", "Blobs",
                "BlobStore", "Projections", "CommandHandling",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // Crypto: the secret of `rebuild --sealed`'s key store.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            path: "tools/logbook-bench"
        ),
        // The client's cost beside a raw HTTP client, and a 304 re-fetch beside a 200 (docs/benchmarks.md).
        .executableTarget(
            name: "logbook-client-bench",
            dependencies: [
                "LogbookClient",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "tools/client-bench"
        ),
        // The CI's machine-independent budgets: allocations, bytes, syncs and pages per unit of work
        // (tools/budgets/budgets.json, docs/benchmarks.md "CI budgets"). HummingbirdTesting drives
        // the server in process, so the interposer sees the route's allocations.
        .executableTarget(
            name: "logbook-budgets",
            dependencies: [
                "API", "EventLog",
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "tools/budgets"
        ),
        // Appends durably and prints every acknowledged position; the crash test kills it with SIGKILL.
        .executableTarget(
            name: "logbook-crash-writer",
            dependencies: ["EventLog", "PostgresEventLog"],
            path: "Tests/CrashWriter"
        ),
        // A client app in a process of its own, which the outbox tests kill and start again.
        .executableTarget(name: "logbook-client-probe", dependencies: ["LogbookClient"], path: "Tests/ClientProbe"),
        // What the test targets that start child processes share (not Foundation's Process: see ChildProcess).
        .target(name: "TestSupport", dependencies: [.product(name: "Subprocess", package: "swift-subprocess")], path: "Tests/TestSupport"),
        .testTarget(name: "LMDBTests", dependencies: ["LMDB"]),
        // The budgets tool's trace parser and check (tools/budgets), without strace or a scenario.
        .testTarget(name: "BudgetsTests", dependencies: ["logbook-budgets"]),
        // Against the real `logbook` binary, but for an expired token: only a server in process
        // (API, HummingbirdTesting) runs on the test's clock.
        .testTarget(
            name: "LogbookClientTests",
            dependencies: [
                "LogbookClient", "logbook", "logbook-client-probe", "TestSupport", "API",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "APITests",
            dependencies: [
                "API", "logbook", "Accounts", "Neighbourhood", "Workplace", "Albums", "Blobs", "BlobStore", "TestSupport", "PostgresEventLog",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                // The live tests read streams as LogbookClient does (Tests/APITests/LiveStreamClient.swift).
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ]
        ),
        .testTarget(name: "EventSourcingTests", dependencies: ["EventSourcing", .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(name: "AccountsTests", dependencies: ["Accounts", "EventSourcing", .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(name: "HouseholdTests", dependencies: ["Household", "EventSourcing"]),
        .testTarget(name: "QuizTests", dependencies: ["Quiz", "EventSourcing"]),
        .testTarget(name: "NeighbourhoodTests", dependencies: ["Neighbourhood", "EventSourcing"]),
        .testTarget(name: "WorkplaceTests", dependencies: ["Workplace", "EventSourcing"]),
        .testTarget(name: "AlbumsTests", dependencies: ["Albums", "EventSourcing"]),
        .testTarget(name: "BlobsTests", dependencies: ["Blobs", "BlobStore", "EventSourcing", .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(name: "ProjectionsTests", dependencies: ["Projections", "EventLog", "Household", "EventSourcing", "Accounts", "Quiz", "Neighbourhood", "Workplace", "Albums", "Blobs",
                    .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(name: "CommandHandlingTests", dependencies: ["CommandHandling", "EventLog", "EventSourcing"]),
        .testTarget(
            name: "EventLogTests",
            dependencies: ["EventLog", "EventSourcing", "PostgresEventLog", "LMDB", "logbook-crash-writer", "logbook-admin", "TestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
