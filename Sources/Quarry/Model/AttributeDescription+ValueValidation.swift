import Foundation
import Synchronization

/// Compiled validation patterns, shared by every check (contexts and importers).
private let compiledPatterns = Mutex<[String: NSRegularExpression?]>([:])

extension AttributeDescription {
    /// Every way `value` breaks this attribute's model rules (required, minimum, maximum,
    /// pattern, a value transformer that is not registered); empty when it is valid. The same check save-time validation runs, usable before
    /// an object exists (an import validates every row before inserting any).
    public func ruleViolations(of value: Value) -> [String] {
        if value.isNull { return !isOptional && !isTransient ? ["is required"] : [] }
        var reasons: [String] = []
        if !isTransient, let reason = transformerRefusal(for: value) { reasons.append(reason) }
        if let reason = rangeViolation(value) { reasons.append(reason) }
        if let pattern = regularExpression, case .string(let s) = value, !Self.matches(s, pattern) {
            reasons.append("'\(s)' does not match /\(pattern)/")
        }
        return reasons
    }

    /// The first of ``ruleViolations(of:)``, or `nil` when `value` is valid.
    public func ruleViolation(of value: Value) -> String? {
        ruleViolations(of: value).first
    }

    private func rangeViolation(_ v: Value) -> String? {
        guard minValue != nil || maxValue != nil else { return nil }
        let measure: Double
        let what: String
        switch v {
        case .string(let s): measure = Double(s.count); what = "length"
        case .data(let d): measure = Double(d.count); what = "size"
        case .date(let d): measure = d.timeIntervalSinceReferenceDate; what = "date"
        default:
            guard let n = v.numericValue else { return nil }
            measure = n; what = "value"
        }
        if let min = minValue, measure < min { return "\(what) \(Self.format(measure)) is below the minimum \(Self.format(min))" }
        if let max = maxValue, measure > max { return "\(what) \(Self.format(measure)) is above the maximum \(Self.format(max))" }
        return nil
    }

    /// A bound as a model file writes it (`5`, not `5.0`).
    static func format(_ d: Double) -> String {
        d.rounded() == d && abs(d) < 1e15 ? String(Int64(d)) : String(d)
    }

    private static func matches(_ s: String, _ pattern: String) -> Bool {
        let regex = compiledPatterns.withLock { cache -> NSRegularExpression? in
            if let r = cache[pattern] { return r }
            // The pattern was checked when the model was built (a bad one is a model error); `nil` only for an unchecked one, which then fails validation.
            let r = try? NSRegularExpression(pattern: "^(?:\(pattern))$")
            cache[pattern] = r
            return r
        }
        guard let regex else { return false }
        return regex.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) != nil
    }
}
