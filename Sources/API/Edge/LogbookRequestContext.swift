import Hummingbird
import NIOCore

/// The request context: Hummingbird's core context plus the client's address (rate limits).
struct LogbookRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    /// The peer's address, when the channel knows it.
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
