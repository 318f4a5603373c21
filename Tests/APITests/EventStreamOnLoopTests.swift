import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOPosix
import Synchronization
import Testing
@testable import API

/// Event streams are written on their connection's event loop, and read the log off it.
@Suite("Event streams on their connection's loop", .timeLimit(.minutes(1)))
struct EventStreamOnLoopTests {
    /// Given a task that prefers a loop, when it waits for a wake-up from another thread, it
    /// goes on on the loop; work it hands to `offLoop` runs elsewhere, and it returns to the loop.
    @Test func aTaskThatPrefersALoopRunsOnItAcrossWakeUpsAndLeavesItOnlyForOffLoopWork() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let observed = try await withTaskExecutorPreference(EventLoopTaskExecutor(loop)) {
            var observed = [loop.inEventLoop]
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Thread.detachNewThread { continuation.resume() }
            }
            observed.append(loop.inEventLoop)
            observed.append(await EventLoopTaskExecutor.offLoop { loop.inEventLoop })
            observed.append(loop.inEventLoop)
            return observed
        }
        #expect(observed == [true, true, false, true])
        try await group.shutdownGracefully()
    }

    /// Given the middleware, when a route answers an event stream whose writes wait for another
    /// thread (as a stream waits for the hub), every write happens on the connection's loop;
    /// another route's body is written where it always was, off the loops.
    @Test func anEventStreamIsWrittenOnItsConnectionsLoopAndOtherBodiesAreNot() async throws {
        let onLoop = Mutex<[String: [Bool]]>([:])
        @Sendable func body(_ route: String, contentType: String, loop: any EventLoop) -> Response {
            Response(status: .ok, headers: [.contentType: contentType], body: ResponseBody { writer in
                for chunk in ["a", "b", "c"] {
                    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                        Thread.detachNewThread { continuation.resume() }
                    }
                    onLoop.withLock { $0[route, default: []].append(loop.inEventLoop) }
                    try await writer.write(ByteBuffer(string: chunk))
                }
                try await writer.finish(nil)
            })
        }
        let router = Router(context: LogbookRequestContext.self)
        router.add(middleware: EventStreamOnLoopMiddleware())
        router.get("/stream") { _, context in body("stream", contentType: "text/event-stream", loop: context.eventLoop) }
        router.get("/json") { _, context in body("json", contentType: "application/json", loop: context.eventLoop) }
        try await Application(router: router).test(.live) { client in
            for route in ["stream", "json"] {
                let response = try await client.execute(uri: "/\(route)", method: .get)
                #expect(response.status == .ok && String(buffer: response.body) == "abc")
            }
        }
        #expect(onLoop.withLock { $0 } == ["stream": [true, true, true], "json": [false, false, false]])
    }
}
