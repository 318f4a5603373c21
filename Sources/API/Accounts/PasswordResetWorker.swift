import Logging
import ServiceLifecycle

/// Carries out the queued reset requests (`PasswordResetQueue`) one at a time, alongside the
/// HTTP server: on graceful shutdown it finishes what is queued, then ends.
///
/// One at a time also makes the per-account cap on reset requests exact.
struct PasswordResetWorker: Service {
    let runtime: LogbookRuntime
    let logger: Logger

    func run() async {
        let queue = runtime.auth.passwordResets
        queue.open()
        await withGracefulShutdownHandler {
            while let request = await queue.next() {
                let dropped = queue.takeDroppedCount()
                if dropped > 0 {
                    logger.warning("password reset requests dropped: the queue was full", metadata: ["dropped": "\(dropped)"])
                }
                // The answer to the request goes out first: work started at once would compete
                // with writing it, and make the answer for an account's e-mail the slower one.
                try? await Task.sleep(for: LogbookConfiguration.passwordResetWorkDelay)
                await carryOut(request)
                queue.finish()
            }
        } onGracefulShutdown: {
            queue.close()
        }
    }

    /// The outcome is nobody's answer any more: a failure of the service is logged (without the
    /// e-mail, which is personal data), a refusal is not.
    private func carryOut(_ request: PasswordResetQueue.Request) async {
        do {
            try await AccountsService(runtime: runtime).carryOutPasswordReset(request)
        } catch {
            logger.error("a password reset request failed", metadata: ["error": "\(error)"])
        }
    }
}
