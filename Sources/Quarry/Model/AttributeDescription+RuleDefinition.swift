import Foundation

extension AttributeDescription {
    /// What is wrong with the validation rules themselves, not with a value: a pattern that
    /// does not compile, a minimum above the maximum. Such a rule would refuse every value (or
    /// none) without saying why, so model files that declare one are refused when loaded.
    ///
    /// Returns the model key at fault (`regex`, `max`) and why; `nil` when the rules are sound.
    ///
    /// ```swift
    /// AttributeDescription(name: "code", type: .string, regularExpression: "[A-Z").ruleDefinitionProblem
    /// // (key: "regex", reason: "'[A-Z' is not a valid regular expression")
    /// ```
    public var ruleDefinitionProblem: (key: String, reason: String)? {
        if let pattern = regularExpression, !Self.isValidPattern(pattern) {
            return ("regex", "'\(pattern)' is not a valid regular expression")
        }
        if let min = minValue, let max = maxValue, min > max {
            return ("max", "the minimum \(Self.format(min)) is above the maximum \(Self.format(max))")
        }
        return nil
    }

    /// Whether `pattern` compiles as the whole-value match validation runs.
    private static func isValidPattern(_ pattern: String) -> Bool {
        // Whether the pattern compiles is the answer asked for.
        (try? NSRegularExpression(pattern: "^(?:\(pattern))$")) != nil
    }
}
