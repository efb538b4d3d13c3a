import Testing
@testable import QuarryTUI

/// What a malformed theme file says: the file, the line and the key at fault.
@Suite struct ThemeErrorTests {
    private func error(in text: String, inherited: [String: Theme] = ["default": .builtInDefault]) -> ThemeError? {
        do {
            _ = try ThemeLoader.parse(text, file: "Themes/bad.toml") { name in
                guard let theme = inherited[name] else { throw ThemeFileLoader.LookupFailure.notFound(name: name, searched: []) }
                return theme
            }
            return nil
        } catch let error as ThemeError {
            return error
        } catch {
            Issue.record("not a ThemeError: \(error)")
            return nil
        }
    }

    @Test func unknownColourNamesTheFileLineAndKey() {
        let problem = error(in: """
            # bad colour below
            [header]
            fg = "white"

            [cursor]
            fg = "blurple"
            """)
        #expect(problem?.file == "Themes/bad.toml")
        #expect(problem?.line == 6)
        #expect(problem?.key == "cursor.fg")
        #expect(problem?.description.hasPrefix("Themes/bad.toml:6: key 'cursor.fg': unknown colour 'blurple'") == true)
    }

    @Test func syntaxErrorGivesTheParserLine() {
        let problem = error(in: "[header]\nfg = \"white\"\nbg = = 3\n")
        #expect(problem?.line == 3)
        #expect(problem?.key == nil)
        #expect(problem?.description.hasPrefix("Themes/bad.toml:3: ") == true)
    }

    /// A malformed file, and the line, key and part of the message its error must have.
    struct Case: Sendable, CustomTestStringConvertible {
        var text: String
        var line: Int
        var key: String
        var message: String
        var testDescription: String { message }
    }

    static let cases: [Case] = [
        Case(text: "[header]\nfg = \"red\"\n\n[cursr]\nfg = \"red\"\n", line: 4, key: "cursr", message: "unknown slot"),
        Case(text: "[row]\nfg = \"red\"\nforeground = \"blue\"\n", line: 3, key: "row.foreground", message: "unknown key"),
        Case(text: "name = \"x\"\n[row]\n", line: 1, key: "name", message: "unknown key"),
        Case(text: "\ncursor = \"red\"\n", line: 2, key: "cursor", message: "a slot must be a table"),
        Case(text: "[status]\nattrs = [\"bold\", \"blink\"]\n", line: 2, key: "status.attrs", message: "unknown attribute 'blink'"),
        Case(text: "[status]\nattrs = \"bold\"\n", line: 2, key: "status.attrs", message: "attributes are an array"),
        Case(text: "[help]\nbg = 256\n", line: 2, key: "help.bg", message: "colour index 256 is not in 0–255"),
        Case(text: "[help]\nbg = true\n", line: 2, key: "help.bg", message: "a colour is"),
        Case(text: "[help]\nfg = \"#12345g\" # not hex\n", line: 2, key: "help.fg", message: "unknown colour '#12345g'"),
        Case(text: "error.fg = \"red\"\nerror.bg = \"pink\"\n", line: 2, key: "error.bg", message: "unknown colour 'pink'"),
        Case(text: "\n\ninherits = \"nope\"\n", line: 3, key: "inherits", message: "unknown theme 'nope'"),
        Case(text: "inherits = 3\n", line: 1, key: "inherits", message: "must be a theme name"),
    ]

    @Test(arguments: cases)
    func malformedFileNamesLineAndKey(_ example: Case) throws {
        let problem = try #require(error(in: example.text))
        #expect(problem.file == "Themes/bad.toml")
        #expect(problem.line == example.line)
        #expect(problem.key == example.key)
        #expect(problem.message.contains(example.message), "\(problem.message)")
    }

    @Test func descriptionLeavesOutWhatIsNotKnown() {
        #expect(ThemeError(file: "a.toml", message: "no such theme file").description == "a.toml: no such theme file")
        #expect(ThemeError(file: "a.toml", line: 2, message: "m").description == "a.toml:2: m")
        #expect(ThemeError(file: "a.toml", key: "row.fg", message: "m").description == "a.toml: key 'row.fg': m")
    }
}
