import Logging
import Projections

/// How the server logs what the projection engine reports.
extension ProjectionIncident {
    var logLevel: Logger.Level {
        switch self {
        case .projectionFailed, .rebuildFailed: .error
        case .logReadFailed: .warning
        case .logReadRecovered: .notice
        case let .runnerStopped(reason): reason == "cancelled" ? .info : .warning
        }
    }

    var message: String {
        switch self {
        case .projectionFailed: "projection failed; it is skipped and its queries answer 503 until a rebuild recovers it"
        case .logReadFailed: "projection runner could not read the log; retrying"
        case .logReadRecovered: "projection runner reads the log again"
        case .rebuildFailed: "projection rebuild failed; the served copy is unchanged"
        case .runnerStopped: "projection runner stopped"
        }
    }

    var metadata: Logger.Metadata {
        switch self {
        case let .projectionFailed(name, position, reason):
            ["projection": "\(name)", "position": "\(position)", "error": "\(reason)"]
        case let .logReadFailed(reason, failures, retryAfter):
            ["error": "\(reason)", "failures": "\(failures)", "retryAfter": "\(retryAfter)"]
        case let .logReadRecovered(failures):
            ["failures": "\(failures)"]
        case let .rebuildFailed(name, reason):
            ["projection": "\(name)", "error": "\(reason)"]
        case let .runnerStopped(reason):
            ["reason": "\(reason)"]
        }
    }
}
