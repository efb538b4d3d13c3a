import Foundation

/// The `sqlite3` shell as another process writing a store under test.
public enum SQLiteShell {
    /// The shell's path.
    public static let executable = URL(fileURLWithPath: "/usr/bin/sqlite3")

    /// Whether the shell is installed (`scripts/install-deps.sh` installs it).
    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable.path) }

    /// A failed run: the shell's status and standard error.
    public struct Failure: Error, CustomStringConvertible {
        /// The exit status.
        public var status: Int32
        /// What the shell printed on standard error.
        public var standardError: String
        public var description: String { "sqlite3 failed (\(status)): \(standardError)" }
    }

    /// Runs `sql` on the database at `url`; returns its output, trimmed.
    /// - Throws: ``Failure`` when the shell exits with a non-zero status.
    @discardableResult
    public static func run(_ url: URL, _ sql: String) throws -> String {
        let result = try CommandRunner.run(executable, [url.path, sql])
        guard result.status == 0 else { throw Failure(status: result.status, standardError: result.standardError) }
        return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
