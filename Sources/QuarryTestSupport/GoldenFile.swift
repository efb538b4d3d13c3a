import Foundation
import Testing

/// Golden files: text a test produces (a command's `--help`, a browser screen), compared whole
/// with a file committed beside the test, so that a change to it shows in review as a diff of
/// that file (docs/goldens.md).
///
/// `QUARRY_RECORD=1 swift test --filter Golden` writes the files that differ or are missing.
/// A recording run still fails each test whose file it wrote, naming the file, so that it is
/// never mistaken for a pass: review the files' diff, then run the tests again without it.
public enum GoldenFile {
    /// The environment variable that turns recording on (`1`).
    public static let recordVariable = "QUARRY_RECORD"

    /// The command that re-records every golden file, as failure messages print it.
    public static let recordCommand = "QUARRY_RECORD=1 swift test --filter Golden"

    /// Whether this run records golden files instead of only comparing them.
    public static var isRecording: Bool { ProcessInfo.processInfo.environment[recordVariable] == "1" }

    /// The folder `relative` beside the test file calling this (`#filePath`), so the files are
    /// found in any clone, wherever it is.
    public static func directory(_ relative: String, filePath: String = #filePath) -> URL {
        URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent(relative, isDirectory: true)
    }

    /// The package's root folder: where `Package.swift` is, above this file.
    static let packageRoot: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// `path` relative to the package's root, for messages that read the same on every machine.
    static func shown(_ path: String) -> String {
        path.hasPrefix(packageRoot + "/") ? String(path.dropFirst(packageRoot.count + 1)) : path
    }

    /// `text` as a golden file holds it: `\n` line ends, and one at the end.
    public static func normalized(_ text: String) -> String {
        var result = text.replacingOccurrences(of: "\r\n", with: "\n")
        while result.hasSuffix("\n") { result.removeLast() }
        return result + "\n"
    }

    /// What of this machine `text` names, which a golden file must not hold: the package's
    /// folder or the user's home folder (a test normalises or injects what varies).
    static func machineSpecificParts(of text: String) -> [String] {
        var parts: [String] = []
        if text.contains(packageRoot) { parts.append("the package's folder \(packageRoot)") }
        let home = NSHomeDirectory()
        if home.count > 1, text.contains(home + "/") { parts.append("the home folder \(home)") }
        return parts
    }
}

/// Compares `text` whole with the golden file `name` in `directory`; on a difference records
/// an issue showing the changed lines (``LineDiff``), numbered, the golden's marked `-` and the
/// text's `+`.
///
/// A missing file fails the test, unless the run records (`QUARRY_RECORD=1`): the file is then
/// written, and the test still fails, saying so (``GoldenFile``). A text that names this
/// machine's package folder or home folder fails as well: it would not match on another machine.
public func assertGolden(_ text: String, named name: String, in directory: URL,
                         sourceLocation: SourceLocation = #_sourceLocation) {
    let actual = GoldenFile.normalized(text)
    let file = directory.appendingPathComponent(name)
    let shown = GoldenFile.shown(file.path)
    let machineParts = GoldenFile.machineSpecificParts(of: actual)
    if !machineParts.isEmpty {
        Issue.record("""
            the text for golden \(shown) names \(machineParts.joined(separator: " and ")): \
            normalise it before comparing, or it would not match on another machine
            """, sourceLocation: sourceLocation)
        return
    }
    let expected = try? String(contentsOf: file, encoding: .utf8)
    if expected == actual { return }
    if GoldenFile.isRecording {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try actual.write(to: file, atomically: true, encoding: .utf8)
            Issue.record("""
                recorded golden \(shown) (\(expected == nil ? "new" : "changed")); review its diff, \
                then run the tests again without \(GoldenFile.recordVariable)
                """, sourceLocation: sourceLocation)
        } catch {
            Issue.record("could not record golden \(shown): \(error)", sourceLocation: sourceLocation)
        }
        return
    }
    let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    guard let expected else {
        Issue.record("""
            no golden file \(shown); record it with: \(GoldenFile.recordCommand)
            The text (\(actualLines.count) lines):
            \(LineDiff(expected: [], actual: actualLines).text(context: 0))
            """, sourceLocation: sourceLocation)
        return
    }
    let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    Issue.record("""
        golden \(shown) differs (- golden, + now; line numbers of each):
        \(LineDiff(expected: expectedLines, actual: actualLines).text())
        If the change is intended, re-record: \(GoldenFile.recordCommand)
        """, sourceLocation: sourceLocation)
}
