/// Latency percentiles of one run, in milliseconds.
///
/// Nearest-rank on a sorted copy: exact, dependency-free, and a sort of a few million doubles
/// takes well under a second, which is nothing next to the run it summarises.
struct Percentiles: Sendable {
    /// Samples, ascending.
    let sortedMilliseconds: [Double]

    /// Summarises `samples` (any order).
    init(_ samples: [Duration]) {
        sortedMilliseconds = samples.map(\.milliseconds).sorted()
    }

    /// The smallest sample at or above `percent` of all samples (nearest rank); 0 with no samples.
    func value(at percent: Double) -> Double {
        precondition(percent > 0 && percent <= 100, "a percentile lies in (0, 100]")
        guard !sortedMilliseconds.isEmpty else { return 0 }
        let rank = Int((percent / 100 * Double(sortedMilliseconds.count)).rounded(.up))
        return sortedMilliseconds[min(Swift.max(rank, 1), sortedMilliseconds.count) - 1]
    }

    var p50: Double { value(at: 50) }
    var p99: Double { value(at: 99) }
    var max: Double { sortedMilliseconds.last ?? 0 }
}

extension Duration {
    /// The duration as fractional seconds, for rates.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// The duration as fractional milliseconds, for latencies.
    var milliseconds: Double { seconds * 1_000 }
}
