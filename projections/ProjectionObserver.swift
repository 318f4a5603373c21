/// Something kept in memory beside the read models, and told by the projection runner what
/// changed: in-memory caches of read-model values now, live notifications later.
///
/// The runner calls it after a live batch has committed and before anyone waiting for that
/// batch (read-your-writes) is released, so a command's answer is never sent while a cache still
/// holds what its events changed.
public protocol ProjectionObserver: Sendable {
    /// A live batch has committed: every read model (of this version) includes `events`.
    func committed(_ events: [ProjectedEvent])
    /// A rebuilt copy of projection `name` replaced the served one: values read from the old
    /// copy may differ from the new copy's.
    func swapped(_ name: String)
}
