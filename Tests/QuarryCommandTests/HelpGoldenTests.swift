import ArgumentParser
import Foundation
@testable import quarry
import QuarryTestSupport
import Testing

/// Every command's `--help`, compared whole with `Goldens/help/<command path>.txt` (issue 40,
/// item 4): a change of wording shows in review as a diff of that file. The commands are found
/// from the root's configuration, so a new command cannot be left without its golden; the
/// text is ArgumentParser's help at a fixed width, so it does not depend on the terminal, and
/// the built binary is checked to print the same for `--help` at that width.
/// Re-record after an intended change: `QUARRY_RECORD=1 swift test --filter Golden`.
@Suite("Golden: every command's --help")
struct HelpGoldenTests {
    /// The width the help is laid out for: a terminal's default, and what the binary prints
    /// when its output is not a terminal.
    static let columns = 80

    /// Where the help goldens are.
    static let directory = GoldenFile.directory("Goldens/help")

    /// Every command under `quarry`, the root first, then each subcommand before its own
    /// subcommands, by its path of names (`quarry`, `quarry demo`, …).
    static func commands() -> [(path: String, type: any ParsableCommand.Type)] {
        var found: [(String, any ParsableCommand.Type)] = []
        func visit(_ type: any ParsableCommand.Type, path: [String]) {
            let name = type.configuration.commandName ?? String(describing: type)
            let here = path + [name]
            found.append((here.joined(separator: " "), type))
            for subcommand in type.configuration.subcommands { visit(subcommand, path: here) }
        }
        visit(QuarryCommand.self, path: [])
        return found
    }

    /// The golden file of the command at `path`: its names joined by `-` (`quarry-demo.txt`).
    static func fileName(_ path: String) -> String {
        path.replacingOccurrences(of: " ", with: "-") + ".txt"
    }

    /// `quarry … --help` of the command at `path`, as ArgumentParser prints it.
    static func help(_ path: String) throws -> String {
        let type = try #require(commands().first { $0.path == path }?.type, "no command \(path)")
        return ObjectIdentifier(type) == ObjectIdentifier(QuarryCommand.self)
            ? QuarryCommand.helpMessage(columns: columns)
            : QuarryCommand.helpMessage(for: type, columns: columns)
    }

    @Test("the commands are found from the root's configuration")
    func everyCommandIsFound() {
        let paths = Self.commands().map(\.path)
        #expect(paths.first == "quarry")
        #expect(paths.count >= QuarryCommand.subcommands.count + 1, "\(paths)")
        #expect(paths.contains("quarry demo") && paths.contains("quarry keys"))
    }

    @Test("a command's --help is its golden file", arguments: commands().map(\.path))
    func helpMatchesGolden(_ path: String) throws {
        assertGolden(try Self.help(path), named: Self.fileName(path), in: Self.directory)
    }

    @Test("the built binary prints that help for --help (at 80 columns)", arguments: commands().map(\.path))
    func binaryPrintsTheSameHelp(_ path: String) throws {
        let executable = try #require(TmuxHarness.builtExecutable(named: "quarry"), "build quarry first (swift build --build-tests)")
        let arguments = Array(path.split(separator: " ").dropFirst().map(String.init)) + ["--help"]
        let result = try CommandRunner.run(executable, arguments, environment: ["COLUMNS": "\(Self.columns)"])
        #expect(result.status == 0)
        #expect(GoldenFile.normalized(result.standardOutput) == GoldenFile.normalized(try Self.help(path)))
    }

    @Test("every help golden names a command that exists (a removed command's file goes too)")
    func noStaleGoldens() throws {
        let expected = Set(Self.commands().map { Self.fileName($0.path) })
        // Hidden files left out: a golden being recorded meanwhile is written through one.
        let present = Set(((try? FileManager.default.contentsOfDirectory(atPath: Self.directory.path)) ?? []).filter { !$0.hasPrefix(".") })
        let stale = present.subtracting(expected).sorted()
        #expect(stale.isEmpty, "golden files of no command in \(Self.directory.lastPathComponent): \(stale); delete them")
    }
}
