import ArgumentParser
import Foundation

/// The rule every command with `--format` follows when a file name has an extension too:
/// the format follows the extension when `--format` is not given; when both are given and
/// the extension names another known format, the command is refused (nothing is guessed).
/// An extension no format claims (`.txt`, none) takes `--format` as it is.
enum FormatChoice {
    /// The format each known extension names.
    static let extensions: [String: String] = ["csv": "csv", "jsonl": "jsonl", "ndjson": "jsonl", "json": "json"]

    /// The format for `path` given `--format` (`nil`: not given): `format`, else the one the
    /// extension names, else `fallback`.
    /// - Throws: `ValidationError` naming both when they disagree.
    static func format(_ format: String?, path: String?, option: String, fallback: String = "csv") throws -> String {
        let named = path.flatMap { extensions[(($0 as NSString).pathExtension).lowercased()] }
        guard let format else { return named ?? fallback }
        if let named, named != format, let path {
            throw ValidationError("--format \(format) does not match \(option) \(path) (a .\((path as NSString).pathExtension) name is \(named)); give a matching name, or leave --format out and the format follows the extension")
        }
        return format
    }

}
