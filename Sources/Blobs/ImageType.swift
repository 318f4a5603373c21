/// The image formats the blob store accepts, as media types. The type of an upload is sniffed
/// from its first bytes (`ImageType.sniff`), never taken from the client's Content-Type.
public enum ImageType: String, Sendable, Equatable, CaseIterable {
    case png = "image/png"
    case jpeg = "image/jpeg"
    case webp = "image/webp"
    case heic = "image/heic"
}
