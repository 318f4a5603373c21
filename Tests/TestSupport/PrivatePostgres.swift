import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A PostgreSQL of the tests' own: one cluster per test process, started on first use in a
/// temporary directory on a free loopback port, and stopped (its directory removed) by a watchdog
/// once the test process is gone, however it ended. Each caller gets a database of its own.
///
/// Without PostgreSQL installed the PostgreSQL variants are skipped, unless
/// `LOGBOOK_REQUIRE_POSTGRES=1` (set by `.ci/run`), which makes that a failure instead.
public enum PrivatePostgres {
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// Whether a missing PostgreSQL fails the tests rather than skipping its variants.
    public static var isRequired: Bool { ProcessInfo.processInfo.environment["LOGBOOK_REQUIRE_POSTGRES"] == "1" }

    /// Whether the PostgreSQL variants can run here.
    public static var isInstalled: Bool { binDirectory != nil }

    /// A new, empty database on the private cluster, as a `postgres://` URL.
    public static func newDatabase() async throws -> String {
        let cluster = try await Cluster.shared.started()
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await run(cluster.bin + "/psql", ["-q", "-h", "127.0.0.1", "-p", "\(cluster.port)", "-U", "postgres", "-d", "postgres",
                                              "-c", "CREATE DATABASE \(name)"])
        return "postgres://postgres@127.0.0.1:\(cluster.port)/\(name)"
    }

    /// Runs one SQL statement on the database of `url` (one from `newDatabase()`), as its owner:
    /// for tests that tamper with what a store wrote.
    public static func execute(on url: String, _ sql: String) async throws {
        let cluster = try await Cluster.shared.started()
        guard let database = url.split(separator: "/").last else { throw Unavailable(description: "no database in \(url)") }
        try await run(cluster.bin + "/psql", ["-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", "\(cluster.port)", "-U", "postgres",
                                              "-d", String(database), "-c", sql])
    }

    /// The newest installed server's programs (Debian keeps each major version apart).
    static let binDirectory: String? = {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return versions.compactMap(Int.init).sorted().last.map { "\(root)/\($0)/bin" }
            .flatMap { FileManager.default.isExecutableFile(atPath: $0 + "/initdb") ? $0 : nil }
    }()

    private actor Cluster {
        static let shared = Cluster()
        /// One start for every caller: the actor is re-entered while the first start awaits.
        private var starting: Task<(bin: String, port: Int), any Error>?

        func started() async throws -> (bin: String, port: Int) {
            if let starting { return try await starting.value }
            let start = Task { try await Self.start() }
            starting = start
            return try await start.value
        }

        private static func start() async throws -> (bin: String, port: Int) {
            guard let bin = PrivatePostgres.binDirectory else {
                throw Unavailable(description: "PostgreSQL is not installed (apt-get install postgresql)")
            }
            let directory = NSTemporaryDirectory() + "logbook-postgres-" + UUID().uuidString
            let port = try freePort()
            // initdb refuses to run as root: then the cluster belongs to Debian's postgres user.
            // fsync stays on: the crash tests rely on what PostgreSQL acknowledges.
            let script = #"""
                set -e
                bin=$1; dir=$2; port=$3; parent=$4
                mkdir -p "$dir"
                as=""
                if [ "$(id -u)" = 0 ]; then chown postgres "$dir"; as="runuser -u postgres --"; fi
                $as "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1
                $as "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
                    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=500" start >/dev/null
                nohup sh -c "while kill -0 $parent 2>/dev/null; do sleep 1; done
                    $as '$bin/pg_ctl' -D '$dir/data' -m immediate stop; rm -rf '$dir'" >/dev/null 2>&1 &
                """#
            try await run("/bin/sh", ["-c", script, "sh", bin, directory, "\(port)", "\(getpid())"])
            return (bin, port)
        }
    }

    private static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Unavailable(description: "socket: errno \(errno)") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else { throw Unavailable(description: "bind: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func run(_ path: String, _ arguments: [String]) async throws {
        let child = ChildProcess()
        child.executableURL = URL(fileURLWithPath: path)
        child.arguments = arguments
        let errors = Pipe()
        child.standardError = errors
        try await child.run()
        try? errors.fileHandleForWriting.close()  // the child has its copy: the end of its output is EOF
        await child.exited()
        if child.terminationStatus != 0 {
            let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw Unavailable(description: "\(path) \(arguments.prefix(1)) failed (\(child.terminationStatus)): \(said)")
        }
    }
}
