import Foundation
import HTTPTypes

/// Commands that could not reach the server, kept on disk and sent again, in order, with their
/// original Idempotency-Keys, until the server answers each; every answer is delivered once
/// through `outcomes` (docs/client.md: what "once" means across a crash).
public actor Outbox {
    /// Sends a queued command once (with the client's retries) and returns the server's answer.
    typealias Sender = @Sendable (QueuedCommand) async throws -> (HTTPResponse, Data)

    private let store: OutboxStore
    private let session: Session
    private let retry: RetryPolicy
    private var commands: [QueuedCommand]
    private var undelivered: [OutboxOutcome]
    private var nextSequence: UInt64
    private var drainer: Task<Void, Never>?
    private var wakeDrainer: CheckedContinuation<Void, Never>?
    private var reader: (id: UUID, continuation: CheckedContinuation<OutboxOutcome?, Never>)?

    init(directory: URL, session: Session, retry: RetryPolicy) throws {
        store = try OutboxStore(directory: directory)
        let (commands, outcomes) = try store.load()
        self.session = session
        self.retry = retry
        self.commands = commands
        undelivered = outcomes
        nextSequence = max(commands.last?.sequence ?? 0, outcomes.last?.sequence ?? 0) + 1
    }

    /// The commands not answered yet, in the order they will be sent.
    public var pending: [QueuedCommand] { commands }

    /// Keeps a command for `userId`; the drainer sends it after those queued before it.
    func enqueue(operationID: String, request: HTTPRequest, body: Data?, userId: String?) throws -> QueuedCommand {
        let command = try QueuedCommand(sequence: nextSequence, operationID: operationID, userId: userId, request: request, body: body)
        try store.add(command)
        nextSequence += 1
        commands.append(command)
        wake()
        return command
    }

    /// Starts sending (once): the client does so when it is made with a storage directory.
    func start(sending send: @escaping Sender) {
        guard drainer == nil else { return }
        drainer = Task { [weak self] in await self?.drain(send) }
    }

    func stop() {
        drainer?.cancel()
        wake()
    }

    /// Wakes a drainer waiting for a command or a session.
    func wake() {
        wakeDrainer?.resume()
        wakeDrainer = nil
    }

    private func waitForWake() async {
        await withCheckedContinuation { wakeDrainer = $0 }
    }

    private func drain(_ send: Sender) async {
        var failures = 0
        while !Task.isCancelled {
            guard let head = commands.first else {
                await waitForWake()
                continue
            }
            // A command goes with its own user's session only: hold it while another is signed in.
            if let owner = head.userId, session.current?.userId != owner {
                await waitForWake()
                continue
            }
            let answer: (HTTPResponse, Data)
            do {
                answer = try await send(head)
            } catch {
                failures += 1
                try? await Task.sleep(for: retry.delay(after: failures) + retry.delayInitial)
                continue
            }
            let (response, body) = answer
            let status = response.status.code
            if RetryPolicy.isTransient(status: status) || status == 401 {
                // Still unreachable behind a proxy, or signed out (ProblemMiddleware's rule
                // ended the session): keep the command and try again later or when signed in.
                failures += 1
                if status == 401 {
                    await waitForWake()
                } else {
                    try? await Task.sleep(for: retry.delay(after: failures) + retry.delayInitial)
                }
                continue
            }
            failures = 0
            let result: OutboxOutcome.Result = status < 400
                ? .accepted(status: status, body: body)
                : .rejected(LogbookProblem.of(status: status, headers: response.headerFields, body: body))
            let outcome = OutboxOutcome(id: head.id, sequence: head.sequence, operationID: head.operationID, result: result)
            do {
                try store.answer(head, with: outcome)
            } catch {
                // The disk refused: the command stays queued and its key answers it again later.
                try? await Task.sleep(for: retry.delayMax)
                continue
            }
            commands.removeFirst()
            undelivered.append(outcome)
            handOver()
        }
    }

    /// The outcomes of queued commands, in their order, each once: an outcome is forgotten when
    /// the loop that read it asks for the next one, so one that a crash interrupted while the
    /// app handled it is delivered again on the next start. Read them in one loop at a time: two
    /// would each be handed the same outcome.
    public nonisolated var outcomes: Outcomes { Outcomes(outbox: self) }

    public struct Outcomes: AsyncSequence, Sendable {
        public typealias Element = OutboxOutcome
        let outbox: Outbox

        public func makeAsyncIterator() -> Iterator { Iterator(outbox: outbox) }

        public struct Iterator: AsyncIteratorProtocol {
            let outbox: Outbox
            var handed: OutboxOutcome?

            public mutating func next() async throws -> OutboxOutcome? {
                if let handed { try await outbox.acknowledge(handed) }
                handed = nil
                let id = UUID()
                let outbox = outbox
                let next = await withTaskCancellationHandler {
                    await outbox.nextOutcome(reader: id)
                } onCancel: {
                    Task { await outbox.cancelReader(id) }
                }
                handed = next
                return next
            }
        }
    }

    private func acknowledge(_ outcome: OutboxOutcome) throws {
        guard undelivered.first?.sequence == outcome.sequence else { return }
        try store.delivered(outcome)
        undelivered.removeFirst()
    }

    private func nextOutcome(reader id: UUID) async -> OutboxOutcome? {
        if Task.isCancelled { return nil }
        if let first = undelivered.first { return first }
        return await withCheckedContinuation { reader = (id, $0) }
    }

    private func cancelReader(_ id: UUID) {
        guard let waiting = reader, waiting.id == id else { return }
        reader = nil
        waiting.continuation.resume(returning: nil)
    }

    private func handOver() {
        guard let waiting = reader, let first = undelivered.first else { return }
        reader = nil
        waiting.continuation.resume(returning: first)
    }
}
