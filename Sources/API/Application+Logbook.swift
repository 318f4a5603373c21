import Foundation
import Hummingbird
import Logging
import OpenAPIHummingbird
import OpenAPIRuntime

/// The contract the server implements, as shipped in the bundle.
public enum OpenAPIDocument {
    /// The bytes of openapi.yaml (JSON-form YAML, so it is also the /openapi.json body).
    public static func data() throws -> Data {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try Data(contentsOf: url)
    }

    /// The document decoded, once per process. Decoding it is slow and throws internally
    /// thousands of times (each value is tried as every JSON type in turn), which a test
    /// process, capturing a backtrace at every throw, paid on each server it started: with a
    /// dozen suites starting servers at once that held both threads of the cooperative pool
    /// for minutes.
    public static func container() throws -> OpenAPIObjectContainer {
        try decoded.get()
    }

    private static let decoded = Result { try JSONDecoder().decode(OpenAPIObjectContainer.self, from: try data()) }
}

/// Builds the HTTP application on `runtime`: middleware, the generated routes, and the
/// projection runner as a service that starts and stops with the server.
/// `onListening` gets `host:port` once the server accepts connections.
public func buildApplication(
    runtime: LogbookRuntime, logger: Logger, onListening: @escaping @Sendable (String) -> Void = { _ in }
) throws -> some ApplicationProtocol {
    let configuration = runtime.configuration
    // HEAD on every GET route: the GET's status and headers without its body.
    let router = Router(context: LogbookRequestContext.self, options: .autoGenerateHeadEndpoints)
    // Outermost: they see the status the client gets, after problem+json mapping.
    router.add(middleware: RequestLogMiddleware(logger: logger))
    router.add(middleware: HTTPMetricsMiddleware(metrics: runtime.metrics))
    router.add(middleware: ProblemMiddleware(logger: logger))
    // Inside the problem mapping, so a problem is never tagged nor a 304. It never answers before
    // the route has: the tag is of the body read after the catch-up wait, as the client would get
    // it, and with the ETag decoded (both inside). The request log and metrics see the 304.
    router.add(middleware: NotModifiedMiddleware())
    router.add(middleware: HeaderLimitMiddleware(bytesMax: HeaderLimits.bytesMax))
    router.add(middleware: AcceptMiddleware())
    router.add(middleware: RequestInfoMiddleware())
    router.add(middleware: CatchUpMiddleware(runtime: runtime))
    router.add(middleware: BodyLimitMiddleware(bytesMax: configuration.jsonBodyBytesMax))
    router.add(middleware: EmptyBodyMiddleware())
    router.add(middleware: BodyFieldProblemMiddleware())
    router.add(middleware: RequestDigestMiddleware())
    router.add(middleware: ResponseHeaderEncodingMiddleware())
    // Innermost: it wraps the route's own body, so everything that writes it runs on the loop.
    router.add(middleware: EventStreamOnLoopMiddleware())
    let document = try OpenAPIDocument.container()
    // Compact JSON: the runtime pretty-prints by default, which costs bytes on every response.
    let openAPI = Configuration(dateTranscoder: APIDateTranscoder(), jsonEncodingOptions: [.sortedKeys, .withoutEscapingSlashes])
    try LogbookAPI(runtime: runtime, document: document, console: try ConsoleFiles.load()).registerHandlers(on: router, configuration: openAPI)
    // After the routes, so it wraps only the not-found responder: 405 for a known path.
    router.add(middleware: MethodNotAllowedMiddleware(routes: router.routes.map { ($0.path, $0.method) }))
    return Application(
        router: router,
        server: HeaderLimits.server,
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "logbook"),
        services: [
            ProjectionService(engine: runtime.projections, logger: logger) { await runtime.finishInterruptedErasures(logger: logger) },
            PasswordResetWorker(runtime: runtime, logger: logger),
            BlobCollectionService(runtime: runtime, logger: logger),
            LiveService(hub: runtime.live, logger: logger),
        ],
        onServerRunning: { channel in
            onListening("\(configuration.host):\(channel.localAddress?.port ?? configuration.port)")
        },
        logger: logger
    )
}
