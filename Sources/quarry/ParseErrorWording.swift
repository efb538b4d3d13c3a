import Foundation

/// ArgumentParser's own wording for a value that starts with `-` replaced by the real reason.
///
/// `--where -x` reads `-x` as an option, so ArgumentParser says `Missing value for '--where
/// <where>'`, which hides what happened. The message names the value instead and how to pass
/// it (`--where=-x`). (Options whose values are numbers, or sort keys, take such values as they
/// are and refuse a bad one with the reason: see their `parsing: .unconditional`.)
enum ParseErrorWording {
    /// `message` (ArgumentParser's full error text) with a "Missing value for '--NAME <…>'"
    /// line replaced when `arguments` (the command line, without the program) give `--NAME`
    /// a following value starting with `-`; `nil` when there is nothing to replace.
    static func replacing(_ message: String, arguments: [String]) -> String? {
        let pattern = #"Missing value for '(-{1,2}[A-Za-z0-9-]+)[^']*'"#
        guard let expression = try? NSRegularExpression(pattern: pattern),
              let match = expression.firstMatch(in: message, range: NSRange(message.startIndex..., in: message)),
              let whole = Range(match.range, in: message), let nameRange = Range(match.range(at: 1), in: message) else { return nil }
        let name = String(message[nameRange])
        guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
        let value = arguments[index + 1]
        guard value.hasPrefix("-"), value != "-" else { return nil }
        let reason = "\(name) got no value: \(value) starts with '-' and was read as an option; write \(name)=\(value)"
        return message.replacingCharacters(in: whole, with: reason)
    }
}
