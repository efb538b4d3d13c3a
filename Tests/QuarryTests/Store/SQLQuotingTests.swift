import Foundation
import Testing
@testable import Quarry

/// Identifiers and text literals are quoted by doubling the quote wherever it stands, also
/// before a combining mark (where a `Character` comparison would not see it).
@Suite struct SQLQuotingTests {
    @Test func quotesAreDoubledWhateverFollowsThem() {
        #expect(sqlIdentifier("plain") == "\"plain\"")
        #expect(sqlIdentifier("a\"b") == "\"a\"\"b\"")
        #expect(sqlIdentifier("\"") == "\"\"\"\"")
        #expect(sqlIdentifier("x\"\u{301}y") == "\"x\"\"\u{301}y\"")
        #expect(sqlQuoted("it's", by: "'") == "'it''s'")
        #expect(sqlQuoted("'\u{301}", by: "'") == "'''\u{301}'")
        #expect(Value.string("o'clock").sqlLiteral == "'o''clock'")
    }
}
