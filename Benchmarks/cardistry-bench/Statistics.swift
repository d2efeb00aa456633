import CardModels
import Foundation
import Synchronization

/// The statistics the gate and `compare` use: medians, the Mann–Whitney U test and a bootstrap interval.
///
/// The U test is the one benchstat applies to benchmark samples (golang.org/x/perf/benchstat): rank-based, so it
/// assumes no distribution and a single wild sample cannot swing it. Exact p-values come from the distribution of
/// U under the null hypothesis, whose counts are the coefficients of the Gaussian binomial coefficient
/// [n + m choose n]_q (Mann and Whitney 1947; Andrews, *The Theory of Partitions*, §3.3); with ties, or when the
/// samples are too large for the exact counts, the normal approximation with tie and continuity corrections is
/// used (Lehmann, *Nonparametrics*, 1975, §1.4).
enum Statistics {
    static func median(_ values: [Double]) -> Double {
        percentile(values, 0.5)
    }

    /// The `fraction` quantile by linear interpolation between order statistics (Hyndman–Fan type 7, the default
    /// of R and NumPy); NaN for no values.
    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let position = fraction * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, sorted.count - 1)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - Double(lower))
    }

    /// The one-sided p-value of the Mann–Whitney U test for "`x` tends to be larger than `y`": the probability,
    /// were both drawn from one distribution, of a U statistic at least as large as the one observed.
    ///
    /// - Complexity: O(n·m²) for the exact distribution (n = `x.count`, m = `y.count`; used without ties while
    ///   `exactCountsFit`), O((n + m) log(n + m)) otherwise.
    static func mannWhitneyGreater(_ x: [Double], _ y: [Double]) -> Double {
        guard !x.isEmpty, !y.isEmpty else { return 1 }
        let n = x.count
        let m = y.count
        // Mid-ranks of the pooled samples.
        let pooled = (x.map { ($0, true) } + y.map { ($0, false) }).sorted { $0.0 < $1.0 }
        var rankSumX = 0.0
        var tieTerm = 0.0
        var index = 0
        var ties = false
        while index < pooled.count {
            var end = index
            while end + 1 < pooled.count, pooled[end + 1].0 == pooled[index].0 { end += 1 }
            let count = Double(end - index + 1)
            if count > 1 { ties = true }
            tieTerm += count * count * count - count
            let rank = Double(index + end + 2) / 2
            for k in index...end where pooled[k].1 { rankSumX += rank }
            index = end + 1
        }
        let u = rankSumX - Double(n * (n + 1)) / 2
        if !ties, exactCountsFit(n, m) {
            let counts = nullCounts(n, m)
            let total = counts.reduce(0, +)
            let observed = Int(u.rounded())
            let tail = counts[observed...].reduce(0, +)
            return min(1, tail / total)
        }
        let mean = Double(n * m) / 2
        let total = Double(n + m)
        let variance = Double(n * m) / 12 * ((total + 1) - tieTerm / (total * (total - 1)))
        guard variance > 0 else { return u > mean ? 0 : 1 }
        let z = (u - mean - 0.5) / variance.squareRoot()
        return 0.5 * erfc(z / 2.0.squareRoot())
    }

    /// Whether the exact null distribution of (n, m) is exact in doubles: its counts sum to C(n + m, n), and the
    /// alternating subtraction that builds them (`computeNullCounts`) stays exact only while that is under 2^53.
    /// Past it the counts are rounding noise (for the million cells' 60 against 200 rounds they summed to 5 × 10^65,
    /// not C(260, 60) ≈ 5.8 × 10^59, and a 3× slowdown scored p = 0.95); there the normal approximation, whose error
    /// at those sizes is far under the gate's alphas, is used.
    static func exactCountsFit(_ n: Int, _ m: Int) -> Bool {
        let logBinomial = lgamma(Double(n + m + 1)) - lgamma(Double(n + 1)) - lgamma(Double(m + 1))
        return logBinomial < 52 * log(2.0)
    }

    /// The number of arrangements of n x's and m y's giving each U = 0…n·m: the coefficients of
    /// [n + m choose m]_q = ∏_{i=1}^{m} (1 − q^{n+i}) / (1 − q^i), built one factor at a time (each partial
    /// product is itself a Gaussian binomial, so its coefficients stay non-negative between factors).
    private static func nullCounts(_ n: Int, _ m: Int) -> [Double] {
        if let known = nullCountCache.withLock({ $0[n << 32 | m] }) { return known }
        let counts = computeNullCounts(n, m)
        nullCountCache.withLock { $0[n << 32 | m] = counts }
        return counts
    }

    /// The distributions already computed, by (n, m): a gate run asks for a few sizes thousands of times.
    private static let nullCountCache = Mutex<[Int: [Double]]>([:])

    private static func computeNullCounts(_ n: Int, _ m: Int) -> [Double] {
        var coefficients = [Double](repeating: 0, count: n * m + 1)
        coefficients[0] = 1
        for i in 1...m {
            let multiplier = n + i
            // × (1 − q^{n+i}), highest degree first so each term reads the old coefficient.
            if multiplier < coefficients.count {
                for degree in stride(from: coefficients.count - 1, through: multiplier, by: -1) {
                    coefficients[degree] -= coefficients[degree - multiplier]
                }
            }
            // ÷ (1 − q^i): the series 1 + q^i + q^2i + …, lowest degree first.
            for degree in i..<coefficients.count { coefficients[degree] += coefficients[degree - i] }
        }
        return coefficients.map { max(0, $0.rounded()) }
    }

    /// A 95 % percentile-bootstrap interval for `median(new) / median(old)` (Efron and Tibshirani, *An
    /// Introduction to the Bootstrap*, 1993, §13.3), from `resamples` seeded resamples of each side: the same
    /// inputs give the same interval.
    static func bootstrapMedianRatio(
        old: [Double], new: [Double], resamples: Int = 2_000, seed: UInt64 = 0xB007
    ) -> (low: Double, high: Double) {
        guard !old.isEmpty, !new.isEmpty else { return (.nan, .nan) }
        var random = SplitMix64(seed: seed)
        var ratios: [Double] = []
        ratios.reserveCapacity(resamples)
        var oldResample = old
        var newResample = new
        for _ in 0..<resamples {
            for k in oldResample.indices { oldResample[k] = old[Int(random.next() % UInt64(old.count))] }
            for k in newResample.indices { newResample[k] = new[Int(random.next() % UInt64(new.count))] }
            ratios.append(median(newResample) / median(oldResample))
        }
        return (percentile(ratios, 0.025), percentile(ratios, 0.975))
    }
}
