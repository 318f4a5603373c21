import Foundation

/// What the read-model environment records of one projection (in its `meta` table).
struct ProjectionMeta: Decodable, Equatable, ReadModelValue {
    /// The version of `apply` the active copy was built with.
    var version: Int
    /// The generation queries read; its tables are in slot `generation % 2`.
    var activeGeneration: Int
    /// The last log position the active copy includes.
    var checkpoint: UInt64
    /// A copy being built while the active one keeps serving, if any.
    var rebuild: Rebuild?
    /// Set when `apply` threw on an event: the live runner skips the projection and queries
    /// refuse it until a rebuild swaps in a copy that got past that event.
    var failure: ProjectionFailure?
    /// Why the last rebuild failed; a successful rebuild writes a fresh metadata without it.
    var lastRebuildError: String?

    /// A generation under construction and how far it has got.
    struct Rebuild: Decodable, Equatable, ReadModelValue {
        /// Tells two rebuilds of one projection apart (say, the admin API's and the CLI's): the
        /// later one takes over and the earlier one stops at its next batch.
        var id: UUID
        var generation: Int
        var version: Int
        var checkpoint: UInt64

        func encode(to writer: inout ValueWriter) {
            writer.write(id)
            writer.write(generation)
            writer.write(version)
            writer.write(checkpoint)
        }

        init(id: UUID, generation: Int, version: Int, checkpoint: UInt64) {
            self.id = id
            self.generation = generation
            self.version = version
            self.checkpoint = checkpoint
        }

        init(from reader: inout ValueReader) throws(ValueDecodingError) {
            id = try reader.read()
            generation = try reader.read()
            version = try reader.read()
            checkpoint = try reader.read()
        }
    }

    init(version: Int, activeGeneration: Int, checkpoint: UInt64, rebuild: Rebuild? = nil) {
        self.version = version
        self.activeGeneration = activeGeneration
        self.checkpoint = checkpoint
        self.rebuild = rebuild
    }

    /// The first byte of the binary form. Metadata written before it was JSON, whose first byte
    /// is `{`: `ReadModelStore` still reads those, so an old data directory opens and rebuilds.
    /// Format 1 ended after `rebuild`; format 2 adds `failure` and `lastRebuildError`, so a
    /// format-1 value still reads (as a projection that never failed).
    static let binaryFormat: UInt8 = 2
    /// The binary form before failures were recorded.
    static let binaryFormatWithoutFailures: UInt8 = 1

    func encode(to writer: inout ValueWriter) {
        writer.writeVarint(UInt64(Self.binaryFormat))
        writer.write(version)
        writer.write(activeGeneration)
        writer.write(checkpoint)
        writer.write(rebuild)
        writer.write(failure)
        writer.write(lastRebuildError)
    }

    init(from reader: inout ValueReader) throws(ValueDecodingError) {
        let format = try reader.readVarint()
        guard format == UInt64(Self.binaryFormat) || format == UInt64(Self.binaryFormatWithoutFailures) else {
            throw .invalid("metadata format")
        }
        version = try reader.read()
        activeGeneration = try reader.read()
        checkpoint = try reader.read()
        rebuild = try reader.read()
        guard format == UInt64(Self.binaryFormat) else { return }
        failure = try reader.read()
        lastRebuildError = try reader.read()
    }

    /// Whether queries are answered from the served copy of `projection` (this code's version).
    func state(of projection: any Projection) -> ProjectionState {
        if failure != nil { return .failed }
        return version == projection.version ? .serving : .rebuilding
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
