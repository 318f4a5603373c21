import Hummingbird
import NIOCore

/// The request context: Hummingbird's core context plus the client's address (rate limits) and
/// the connection's event loop (event streams are written on it).
struct LogbookRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    /// The peer's address, when the channel knows it.
    let remoteAddress: SocketAddress?
    /// The loop that serves the connection.
    let eventLoop: any EventLoop

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        eventLoop = source.channel.eventLoop
    }
}
