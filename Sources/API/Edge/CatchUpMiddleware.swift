import Hummingbird
import Projections

/// Holds a request to the apps' routes (`/v1/…`, operators' aside) while the projection runner
/// is still catching up with the log it found at the start, until the read models hold every
/// event the log held when the request came, at most `readYourWritesTimeout`; then 503
/// `read_models_behind` with `Retry-After`.
///
/// Logins, bearer tokens and every query are answered from the read models. On a start whose
/// read models are behind the log (a restore from a backup without them, a restart after the
/// machine's, a new projection version) they would otherwise refuse a correct password or a
/// live token as wrong (401, which a client takes for "logged out"), accept one changed or
/// ended before the stop, and show pages from before the user's own last commands. Once the
/// runner has reached the head this costs one lock read; a stopped runner is left to
/// `/health/ready` and the commands' own wait.
struct CatchUpMiddleware<Context: RequestContext>: RouterMiddleware {
    let runtime: LogbookRuntime

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if Self.waits(request.uri.path) { try await runtime.readModelsCaughtUp() }
        return try await next(request, context)
    }

    /// Whether a request to `path` reads what the read models hold: the apps' routes, not the
    /// health checks, metrics, the contract, the console or the operators' routes (which show
    /// the catch-up itself).
    static func waits(_ path: String) -> Bool {
        path.hasPrefix("/v1/") && !path.hasPrefix("/v1/admin/")
    }
}

extension LogbookRuntime {
    /// Returns at once unless the projection runner is starting or catching up; then once the read
    /// models hold the log as it is now, or throws 503 `read_models_behind` after
    /// `readYourWritesTimeout`.
    func readModelsCaughtUp() async throws(Problem) {
        switch projections.runnerStatus.phase {
        case .running, .stopped: return
        case .starting, .catchingUp: break
        }
        let head: UInt64
        do {
            head = try await log.headPosition()
            try await projections.waitUntilProjected(head, timeout: configuration.readYourWritesTimeout)
        } catch {
            throw Problem(
                status: .serviceUnavailable, code: "read_models_behind", title: "Read models behind",
                detail: "the server is bringing its read models up to the log after a start; retry shortly",
                headers: [.retryAfter: "1"])
        }
    }
}
