import LMDB

extension ProjectionEngine {
    /// The read models' LMDB environment's map size and use now (`mdb_env_info`,
    /// `mdb_env_stat`): cheap, for the server's metrics.
    public nonisolated var readModelEnvironmentInfo: EnvironmentInfo { store.environment.info() }
}
