import Histogram

/// Latency percentiles of one run, in milliseconds: an HdrHistogram of the samples in
/// nanoseconds to three significant digits, so a percentile is the nearest-rank sample to within
/// 0.1 % (under 1 ms, within the tables' last digit); the maximum is exact.
struct Percentiles: Sendable {
    private var histogram = Histogram<UInt64>(highestTrackableValue: 3_600_000_000_000, numberOfSignificantValueDigits: .three)

    /// Summarises `samples` (any order); one over an hour counts as an hour.
    init(_ samples: [Duration]) {
        for sample in samples {
            let nanoseconds = sample.components.seconds * 1_000_000_000 + sample.components.attoseconds / 1_000_000_000
            _ = histogram.record(UInt64(clamping: Swift.min(nanoseconds, Int64(histogram.highestTrackableValue))))
        }
    }

    /// How many samples.
    var count: Int { Int(histogram.totalCount) }
    var p50: Double { Self.milliseconds(histogram.valueAtPercentile(50)) }
    var p99: Double { Self.milliseconds(histogram.valueAtPercentile(99)) }
    var max: Double { Self.milliseconds(histogram.maxRecorded) }

    private static func milliseconds(_ nanoseconds: UInt64) -> Double { Double(nanoseconds) / 1_000_000 }
}

extension Duration {
    /// The duration as fractional seconds, for rates.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// The duration as fractional milliseconds, for latencies.
    var milliseconds: Double { seconds * 1_000 }
}
