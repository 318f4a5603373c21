import HTTPTypes
import Hummingbird

/// Answers a request for a known path with a method the path does not serve with 405 and an
/// `Allow` header, instead of the router's 404 (which says the path does not exist).
///
/// Added to the router after every route, so it wraps only the router's not-found responder
/// (Hummingbird applies a middleware to the routes added after it, and to the not-found
/// responder): it never runs for a matched route.
struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Each route path with the methods it serves.
    private let routes: [(path: RouterPath, methods: Set<HTTPRequest.Method>)]

    /// The table of `routes` as the router has them (`Router.routes`). HEAD is allowed wherever
    /// GET is: the router answers it from the GET route (`autoGenerateHeadEndpoints`).
    init(routes: [(path: RouterPath, method: HTTPRequest.Method)]) {
        var table: [String: (path: RouterPath, methods: Set<HTTPRequest.Method>)] = [:]
        for route in routes {
            table[route.path.description, default: (route.path, [])].methods.insert(route.method)
            if route.method == .get { table[route.path.description]?.methods.insert(.head) }
        }
        self.routes = table.values.sorted { $0.path.description < $1.path.description }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard context.endpointPath == nil, let allowed = allowedMethods(path: request.uri.path), !allowed.contains(request.method) else {
            return try await next(request, context)
        }
        throw Problem.methodNotAllowed(allowed: allowed.map(\.rawValue).sorted())
    }

    /// The methods of the route `path` resolves to, or nil when it names no route. Where several
    /// templates match, the router takes the one whose first differing component is literal
    /// (`/v1/houses/join` over `/v1/houses/{houseId}`), so this does too.
    func allowedMethods(path: String) -> Set<HTTPRequest.Method>? {
        let components = path.split(separator: "/", omittingEmptySubsequences: true)
        let matches = routes.compactMap { route -> (literals: [Int], methods: Set<HTTPRequest.Method>)? in
            guard route.path.components.count == components.count,
                  zip(route.path.components, components).allSatisfy({ element, component in element ~= component })
            else { return nil }
            return (zip(route.path.components, components).map { element, component in element == component ? 1 : 0 }, route.methods)
        }
        return matches.max { $0.literals.lexicographicallyPrecedes($1.literals) }?.methods
    }
}

extension Problem {
    /// The path exists but does not serve the request's method; `Allow` lists those it serves.
    static func methodNotAllowed(allowed: [String]) -> Problem {
        Problem(status: .methodNotAllowed, code: "method_not_allowed", title: "Method not allowed",
                detail: "this path answers only \(allowed.joined(separator: ", "))",
                headers: [.allow: allowed.joined(separator: ", ")])
    }
}
