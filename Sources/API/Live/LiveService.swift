import Logging
import ServiceLifecycle

/// Runs the live hub alongside the HTTP server: its reader of the log and the keep-alive
/// comments, until graceful shutdown, which ends every stream with a closing comment.
struct LiveService: Service {
    let hub: LiveHub
    let logger: Logger

    func run() async throws {
        let hub = hub
        let logger = logger
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await hub.run(logger: logger) }
                group.addTask {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: hub.settings.keepAliveInterval)
                        hub.keepAlive()
                    }
                }
                await group.next()
                group.cancelAll()
            }
        }
        hub.shutDown()
    }
}
