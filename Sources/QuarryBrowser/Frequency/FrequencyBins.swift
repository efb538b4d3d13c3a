import Foundation
import Quarry

/// The bins of a frequency view over numbers or dates: each value's count (as the aggregate
/// controller groups them) added to the bin `[k·width, (k+1)·width)` it falls in, no value in
/// a bin of its own.
///
/// Kept from the controller's group changes without reading the groups again: each change
/// moves the difference between a value's new and old count into its bin. Sorting the bins
/// (a few dozen) is done after each change event.
struct FrequencyBins {
    /// What the values are: numbers, or dates (binned by seconds since 2001, UTC days aligned).
    enum Kind: Equatable { case number, date }

    /// The kind of values binned.
    let kind: Kind
    /// The width of a bin (seconds for dates).
    private(set) var width: Double
    /// Each value's count, as the controller last reported it.
    private var counts: [Value: Int64] = [:]
    /// Each bin's count, by bin index (`nil`: no value).
    private(set) var binCounts: [Int64?: Int64] = [:]
    /// The bins shown, in order.
    private(set) var order: [Int64?] = []

    /// The widths `<` and `>` step through for numbers (1, 2, 5 × 10ⁿ) and for dates (a second
    /// to a year).
    private static let dateWidths: [Double] = [1, 60, 300, 900, 3600, 6 * 3600, 86400, 7 * 86400, 30 * 86400, 365 * 86400]

    /// The kind of `value` when it can be binned.
    static func kind(of value: Value) -> Kind? {
        switch value {
        case .integer, .double, .decimal: return .number
        case .date: return .date
        default: return nil
        }
    }

    /// `value` on the bins' axis: the number, or the date's seconds since 2001.
    static func position(of value: Value) -> Double? {
        switch value {
        case .integer(let i): return Double(i)
        case .double(let d): return d.isFinite ? d : nil
        case .decimal(let d): return Double("\(d)")
        case .date(let d): return d.timeIntervalSinceReferenceDate
        default: return nil
        }
    }

    /// Bins of `kind` for `values` (value and count), `width` wide or about a dozen over
    /// their range.
    init(kind: Kind, values: [(Value, Int64)], width: Double? = nil) {
        self.kind = kind
        let positions = values.compactMap { Self.position(of: $0.0) }
        let range = (positions.max() ?? 0) - (positions.min() ?? 0)
        self.width = width ?? Self.niceWidth(atLeast: range / 12, kind: kind)
        for (value, count) in values { counts[value] = count }
        rebin()
    }

    /// The smallest step of `kind` at least `wanted` wide.
    static func niceWidth(atLeast wanted: Double, kind: Kind) -> Double {
        switch kind {
        case .date: return dateWidths.first { $0 >= wanted } ?? dateWidths.last!
        case .number:
            guard wanted > 0, wanted.isFinite else { return 1 }
            let magnitude = pow(10, floor(log10(wanted)))
            return [1, 2, 5, 10].map { $0 * magnitude }.first { $0 >= wanted * (1 - 1e-9) } ?? 10 * magnitude
        }
    }

    /// `>` (`wider`) or `<`: the next step wider or narrower; returns whether it changed.
    mutating func step(wider: Bool) -> Bool {
        let next: Double
        switch kind {
        case .date:
            let index = Self.dateWidths.firstIndex { $0 >= width } ?? 0
            let target = wider ? index + 1 : index - 1
            guard Self.dateWidths.indices.contains(target) else { return false }
            next = Self.dateWidths[target]
        case .number:
            // 1, 2, 5, 10, …: the mantissa decides the step.
            let magnitude = pow(10, floor(log10(width) + 1e-9))
            let mantissa = (width / magnitude).rounded()
            switch (mantissa, wider) {
            case (1, true): next = 2 * magnitude
            case (2, true): next = 5 * magnitude
            case (_, true): next = 10 * magnitude
            case (1, false): next = magnitude / 2
            case (2, false): next = magnitude
            case (_, false): next = 2 * magnitude
            }
            guard next >= 1e-9, next <= 1e15 else { return false }
        }
        // At most 10,000 bins over the values' range: narrower would only add empty ones.
        let positions = counts.keys.compactMap(Self.position(of:))
        if !wider, let low = positions.min(), let high = positions.max(), (high - low) / next > 10_000 { return false }
        width = next
        rebin()
        return true
    }

    /// The bin `value` falls in (`nil` for no value).
    func bin(of value: Value) -> Int64? {
        guard let position = Self.position(of: value) else { return nil }
        return Int64(clamping: Int((position / width).rounded(.down)))
    }

    private mutating func rebin() {
        binCounts = [:]
        for (value, count) in counts { binCounts[bin(of: value), default: 0] += count }
        binCounts = binCounts.filter { $0.value > 0 }
    }

    /// The controller reported `value`'s count as `count` (0: the value left); returns its bin.
    @discardableResult
    mutating func set(_ value: Value, count: Int64) -> Int64? {
        let delta = count - (counts[value] ?? 0)
        counts[value] = count > 0 ? count : nil
        let key = bin(of: value)
        let now = (binCounts[key] ?? 0) + delta
        binCounts[key] = now > 0 ? now : nil
        return key
    }

    /// Orders the bins: by their position (`byBin`) or by count, then position; no value first.
    mutating func sort(byBin: Bool, ascending: Bool) {
        func position(_ bin: Int64?) -> Int64 { bin ?? Int64.min }
        order = binCounts.keys.sorted { a, b in
            if !byBin, let ca = binCounts[a], let cb = binCounts[b], ca != cb { return ascending ? ca < cb : ca > cb }
            return byBin && !ascending ? position(a) > position(b) : position(a) < position(b)
        }
    }

    /// The count of bin `bin`.
    func count(of bin: Int64?) -> Int64 { binCounts[bin] ?? 0 }

    /// The lower and upper bounds of `bin` as values of the kind binned.
    func bounds(of bin: Int64) -> (lower: Value, upper: Value) {
        let lower = Double(bin) * width, upper = Double(bin + 1) * width
        switch kind {
        case .date: return (.date(Date(timeIntervalSinceReferenceDate: lower)), .date(Date(timeIntervalSinceReferenceDate: upper)))
        case .number:
            if width == width.rounded(), abs(upper) < 1e15 { return (.integer(Int64(lower)), .integer(Int64(upper))) }
            return (.double(lower), .double(upper))
        }
    }

    /// How bin `bin` shows: `[10, 20)`, `[2026-12-01, 2026-12-02)`, `(none)`.
    func label(of bin: Int64?) -> String {
        guard let bin else { return "(none)" }
        let (lower, upper) = bounds(of: bin)
        return "[\(text(lower)), \(text(upper)))"
    }

    private func text(_ value: Value) -> String {
        switch value {
        case .date(let d): return width >= 86400 ? ValueText.formatDate(d) : ValueText.formatDateTime(d)
        case .double(let d): return TableSummary.compact(.double(d))
        default: return ValueText.format(value)
        }
    }

    /// The filter keeping the objects of `bin` on `keyPath`.
    func condition(of bin: Int64?, keyPath: String) -> ObjectPredicate {
        guard let bin else { return PredicateKey(keyPath) == .null }
        let (lower, upper) = bounds(of: bin)
        return .and([PredicateKey(keyPath) >= lower, PredicateKey(keyPath) < upper])
    }

    /// The width as the status line says it: `10`, `0.5`, `1 day`.
    var widthText: String {
        guard kind == .date else { return TableSummary.compact(.double(width)) }
        let names: [Double: String] = [1: "1 second", 60: "1 minute", 300: "5 minutes", 900: "15 minutes", 3600: "1 hour",
                                       6 * 3600: "6 hours", 86400: "1 day", 7 * 86400: "1 week", 30 * 86400: "30 days", 365 * 86400: "365 days"]
        return names[width] ?? "\(Int(width)) s"
    }
}
