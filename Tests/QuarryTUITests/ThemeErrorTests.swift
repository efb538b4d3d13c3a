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

    @Test func unknownSlotIsReportedAtItsTable() {
        let problem = error(in: "[header]\nfg = \"red\"\n\n[cursr]\nfg = \"red\"\n")
        #expect(problem?.line == 4)
        #expect(problem?.key == "cursr")
        #expect(problem?.message.contains("unknown slot") == true)
    }

    @Test func unknownKeysInsideAndOutsideSlots() {
        let inside = error(in: "[row]\nfg = \"red\"\nforeground = \"blue\"\n")
        #expect(inside?.line == 3)
        #expect(inside?.key == "row.foreground")
        let outside = error(in: "name = \"x\"\n[row]\n")
        #expect(outside?.line == 1)
        #expect(outside?.key == "name")
        #expect(outside?.message.contains("unknown key") == true)
    }

    @Test func slotThatIsNotATable() {
        let problem = error(in: "\ncursor = \"red\"\n")
        #expect(problem?.line == 2)
        #expect(problem?.key == "cursor")
    }

    @Test func badAttributeAndBadAttributeList() {
        let unknown = error(in: "[status]\nattrs = [\"bold\", \"blink\"]\n")
        #expect(unknown?.line == 2)
        #expect(unknown?.key == "status.attrs")
        #expect(unknown?.message.contains("unknown attribute 'blink'") == true)
        let notAnArray = error(in: "[status]\nattrs = \"bold\"\n")
        #expect(notAnArray?.key == "status.attrs")
    }

    @Test func colourIndexOutOfRangeAndWrongType() {
        let range = error(in: "[help]\nbg = 256\n")
        #expect(range?.key == "help.bg")
        #expect(range?.line == 2)
        let type = error(in: "[help]\nbg = true\n")
        #expect(type?.key == "help.bg")
    }

    @Test func hashInsideAQuotedColourIsNotAComment() {
        let problem = error(in: "[help]\nfg = \"#12345g\" # not hex\n")
        #expect(problem?.line == 2)
        #expect(problem?.message.contains("'#12345g'") == true)
    }

    @Test func unknownInheritedThemeIsReportedAtInherits() {
        let problem = error(in: "\n\ninherits = \"nope\"\n")
        #expect(problem?.line == 3)
        #expect(problem?.key == "inherits")
        #expect(problem?.message.contains("unknown theme 'nope'") == true)
    }

    @Test func descriptionLeavesOutWhatIsNotKnown() {
        #expect(ThemeError(file: "a.toml", message: "no such theme file").description == "a.toml: no such theme file")
        #expect(ThemeError(file: "a.toml", line: 2, message: "m").description == "a.toml:2: m")
        #expect(ThemeError(file: "a.toml", key: "row.fg", message: "m").description == "a.toml: key 'row.fg': m")
    }
}
