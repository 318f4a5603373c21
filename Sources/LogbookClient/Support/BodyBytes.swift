import Foundation
import OpenAPIRuntime

/// A request's or response's body read whole, up to `bytesMax` (more throws, as the runtime's
/// collecting does); nil for none.
func bodyBytes(_ body: HTTPBody?, upTo bytesMax: Int = RetryMiddleware.replayableBytesMax) async throws -> Data? {
    guard let body else { return nil }
    return Data(try await ArraySlice<UInt8>(collecting: body, upTo: bytesMax))
}
