import API
import Foundation
import HummingbirdTesting
import LMDB
import Logging
import Projections
import Synchronization

/// A real projection with a bug: throws on events of `failingType` until `fix` is applied. Same
/// name, version and tables as the one it wraps, so the routes' queries read its copy.
struct FaultyProjection: Projection {
    /// What goes wrong.
    enum Fault: Sendable {
        /// `apply` throws: a bug in the projection.
        case bug
        /// The read models' storage fails (an I/O error): not the projection's fault.
        case storage
    }

    let wrapped: any Projection
    let failingType: String
    let fault: Fault
    let fix = ProjectionFix()

    struct Bug: Error {}

    var name: String { wrapped.name }
    var version: Int { wrapped.version }
    var tables: [String] { wrapped.tables }

    func apply(_ event: ProjectedEvent, to model: ReadModelWriter) throws {
        if event.type == failingType && !fix.isApplied {
            switch fault {
            case .bug: throw Bug()
            case .storage: throw LMDBError.system(errno: EIO)
            }
        }
        try wrapped.apply(event, to: model)
    }
}

/// Whether a projection's bug is fixed ("deployed").
final class ProjectionFix: Sendable {
    private let applied = Mutex(false)
    func apply() { applied.withLock { $0 = true } }
    var isApplied: Bool { applied.withLock { $0 } }
}

/// `TestServer` with every real read model but one, replaced by `faulty`.
struct FaultyServer {
    let directory = NSTemporaryDirectory() + "api-tests-" + UUID().uuidString
    let runtime: LogbookRuntime
    let faulty: FaultyProjection

    init(_ faulty: FaultyProjection, configure: (inout LogbookConfiguration) -> Void = { _ in }) throws {
        var configuration = LogbookConfiguration(dataDirectory: directory, port: 0, bcryptCost: 4, unsafeNoSync: true, writeAhead: false)
        configure(&configuration)
        self.faulty = faulty
        let readModels = LogbookProjections.all.map { $0.name == faulty.name ? faulty : $0 }
        runtime = try LogbookRuntime(configuration: configuration, readModels: readModels)
    }

    /// Runs `body` against the live application (the projection runner included).
    func test<Value>(
        logger: Logger = Logger(label: "api-tests"), _ body: @Sendable (any TestClientProtocol) async throws -> Value
    ) async throws -> Value {
        try await buildApplication(runtime: runtime, logger: logger).test(.live, body)
    }

    func remove() {
        runtime.close()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
