import Foundation

/// Output lines of a child process, collected as they arrive.
public final class LineCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var text = ""

    public init() {}

    public func append(_ data: Data) { lock.withLock { text += String(decoding: data, as: UTF8.self) } }

    /// Everything collected so far.
    public var output: String { lock.withLock { text } }

    /// The rest of the first complete line starting with `prefix`.
    public func waitForLine(prefix: String, timeout: Duration) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let found = lock.withLock { text.split(separator: "\n").first { $0.hasPrefix(prefix) } }
            if let found { return String(found.dropFirst(prefix.count)) }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TimedOut(waitingFor: prefix, output: lock.withLock { text })
    }

    public struct TimedOut: Error { public let waitingFor: String; public let output: String }
}
