import EventSourcing
import Hummingbird
import ServiceLifecycle

/// Puts the server's personal data keyring in effect for every request, so commands seal the
/// personal fields of the events they write and reads open them (ADR 0004). Task-locals reach
/// the tasks a handler starts (a rebuild an operator asks for) too.
struct PersonalDataMiddleware<Context: RequestContext>: RouterMiddleware {
    let keyring: any PersonalDataKeyring

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try await PersonalDataKeys.$current.withValue(keyring) { try await next(request, context) }
    }
}

/// A service run with the server's personal data keyring in effect: the projection runner
/// decodes events with it, the password-reset worker writes events with it.
struct PersonalDataScopedService: Service {
    let keyring: any PersonalDataKeyring
    let service: any Service

    func run() async throws {
        try await PersonalDataKeys.$current.withValue(keyring) { try await service.run() }
    }
}
