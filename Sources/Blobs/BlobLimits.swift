/// The bounds of the blob store.
public enum BlobLimits {
    /// An image's size at most: 10 MiB (SPEC §1 "HTTP API conventions").
    public static let imageBytesMax = 10 * 1024 * 1024
}
