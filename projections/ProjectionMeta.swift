import Foundation

/// What the read-model environment records of one projection (in its `meta` table).
struct ProjectionMeta: Codable, Equatable {
    /// The version of `apply` the active copy was built with.
    var version: Int
    /// The generation queries read; its tables are in slot `generation % 2`.
    var activeGeneration: Int
    /// The last log position the active copy includes.
    var checkpoint: UInt64
    /// A copy being built while the active one keeps serving, if any.
    var rebuild: Rebuild?

    /// A generation under construction and how far it has got.
    struct Rebuild: Codable, Equatable {
        /// Tells two rebuilds of one projection apart (say, the admin API's and the CLI's): the
        /// later one takes over and the earlier one stops at its next batch.
        var id: UUID
        var generation: Int
        var version: Int
        var checkpoint: UInt64
    }

    /// The LMDB database name of `table` in `generation` of projection `name`.
    ///
    /// Generations alternate between two slots: LMDB cannot safely close a database handle a
    /// reader may still use, so old copies are emptied (MVCC keeps them readable to snapshots that
    /// still see them) and reused, never deleted, and the number of databases stays bounded.
    static func databaseName(_ name: String, generation: Int, table: String) -> String {
        "\(name)@\(generation % 2)/\(table)"
    }
}
