import Foundation
import QuarryTestSupport
import Testing

/// The command line's documentation is made from the commands: docs/cli.md's reference is their
/// `--help` (scripts/cli-docs.sh), and the shell completion scripts are swift-argument-parser's.
@Suite("The command reference and completion scripts are the commands' own")
struct CLIReferenceTests {
    /// The repository (found from this file's path).
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `bash ARGUMENTS` in the repository.
    static func bash(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandRunner.Result {
        try CommandRunner.run(URL(fileURLWithPath: "/bin/bash"), arguments, environment: environment)
    }

    @Test("docs/cli.md's reference is every command's --help (regenerate: bash scripts/cli-docs.sh)")
    func referenceIsTheHelp() throws {
        let quarry = try #require(TmuxHarness.builtExecutable(named: "quarry"), "build quarry first (swift build --build-tests)")
        let script = Self.repository.appendingPathComponent("scripts/cli-docs.sh").path
        let result = try Self.bash([script, "--check"], environment: ["QUARRY_BIN": quarry.path])
        #expect(result.status == 0, "\(result.standardError)")
    }

    @Test("quarry --generate-completion-script bash is a script bash -n accepts")
    func bashCompletionParses() throws {
        let result = try QuarryExecutable.run(["--generate-completion-script", "bash"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("-F _quarry quarry"), "a bash completion script registers its function for quarry")
        let directory = TemporaryDirectory()
        let script = try QuarryExecutable.write(result.standardOutput, to: directory.file("quarry.bash"))
        let check = try Self.bash(["-n", script.path])
        #expect(check.status == 0, "bash -n refused the completion script: \(check.standardError)")
    }

    @Test("zsh and fish completion scripts are made, naming every command", arguments: ["zsh", "fish"])
    func otherShells(shell: String) throws {
        let result = try QuarryExecutable.run(["--generate-completion-script", shell])
        #expect(result.status == 0, "\(result.standardError)")
        for command in ["demo", "browse", "migrate", "export", "history", "keys"] {
            #expect(result.standardOutput.contains(command), "the \(shell) script names \(command)")
        }
    }
}
