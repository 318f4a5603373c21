import EventSourcing

extension BlobLimits {
    /// Whether `text` is a blob id: exactly 64 lowercase hex digits (a SHA-256). Checked before
    /// an id reaches a path or a tag, so a client's text never names a file of its own choosing.
    public static func isBlobId(_ text: String) -> Bool {
        SHA256Hex.isDigest(text)
    }
}
