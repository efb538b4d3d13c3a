import Foundation
import Quarry
import QuarryTestSupport
import QuarryTUI
import Testing
@_spi(Testing) @testable import QuarryBrowser

/// `x` and `:w FILE` onto an existing file ask before replacing it; `:w! FILE` replaces it at
/// once; no answer (or no) leaves the file as it was.
@MainActor
@Suite struct ExportOverwriteTests {
    /// A fixture and an existing file holding `old`.
    private func fixtureWithExistingFile() throws -> (BrowserFixture, URL) {
        let fixture = try BrowserFixture(tickers: 5, sectioned: false)
        let url = fixture.directory.file("existing.csv")
        try Data("old".utf8).write(to: url)
        return (fixture, url)
    }

    private func contents(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    @Test func xOntoAnExistingFileAsksAndNoLeavesIt() async throws {
        let (fixture, url) = try fixtureWithExistingFile()
        fixture.press(.character("x"))
        fixture.press(.control("u"))
        fixture.type(url.path)
        fixture.press(.enter)
        let screen = fixture.screen().joined(separator: "\n")
        #expect(screen.contains("Replace it with the export? (y/n)"), "\(screen)")
        #expect(fixture.browser.exports.pending == nil)
        fixture.press(.character("n"))
        #expect(fixture.screen().last?.contains("not exported; \(url.path) is as it was") == true)
        #expect(try contents(url) == "old")
    }

    @Test func xOntoAnExistingFileReplacesItOnYes() async throws {
        let (fixture, url) = try fixtureWithExistingFile()
        fixture.press(.character("x"))
        fixture.press(.control("u"))
        fixture.type(url.path)
        fixture.press(.enter)
        fixture.press(.character("y"))
        await fixture.browser.exportsSettled()
        let text = try contents(url)
        #expect(text.hasPrefix("symbol") && text.contains("T04"), "\(text)")
        #expect(fixture.screen().last?.contains("exported 5 rows to \(url.path)") == true)
    }

    @Test func colonWAsksAndColonWBangForces() async throws {
        let (fixture, url) = try fixtureWithExistingFile()
        fixture.press(.character(":"))
        fixture.type("w \(url.path)")
        fixture.press(.enter)
        #expect(fixture.screen().joined(separator: "\n").contains("Replace it with the export? (y/n)"))
        fixture.press(.escape)
        #expect(try contents(url) == "old")
        fixture.press(.character(":"))
        fixture.type("w! \(url.path)")
        fixture.press(.enter)
        #expect(!fixture.screen().joined(separator: "\n").contains("(y/n)"))
        await fixture.browser.exportsSettled()
        #expect(try contents(url) != "old")
        #expect(fixture.screen().last?.contains("exported 5 rows to \(url.path)") == true)
    }

    @Test func aNewFileIsWrittenWithoutAQuestion() async throws {
        let fixture = try BrowserFixture(tickers: 5, sectioned: false)
        let url = fixture.directory.file("new.csv")
        fixture.press(.character(":"))
        fixture.type("w \(url.path)")
        fixture.press(.enter)
        await fixture.browser.exportsSettled()
        #expect(FileManager.default.fileExists(atPath: url.path))
    }

    @Test func colonWBangParses() throws {
        #expect(try BrowserCommand.parse("w! out.csv") == .write("out.csv", force: true))
        #expect(try BrowserCommand.parse("w out.csv") == .write("out.csv", force: false))
    }
}
