import Foundation

/// Inputs that crash code this branch does not own, found by this fuzzer and reported with their
/// fix (issue 15's CI report). Until each fix lands the fuzzer skips them, so the run looks for
/// new crashes instead of finding these again; each has a disabled regression test naming it.
/// Delete a case (and enable its test) once its fix is merged.
enum KnownCrashes {
    /// Whether `data` is a known crash of `target`.
    static func contains(_ data: Data, for target: FuzzTarget) -> Bool {
        switch target {
        case .xcode: return xcodeNameNotUTF8(data) || xcodeProcessingInstruction(data)
        case .theme: return themeTableNameStartsBadly(data)
        case .predicate, .json: return false
        }
    }

    /// FoundationXML's `_NSXMLParserStartElementNs` traps on an element or attribute name that
    /// is not UTF-8 (`<e\u{D6}/>` as bytes `<e`, 0xD6, `/>`); XcodeContentsParser should refuse
    /// a document that is not UTF-8 before XMLParser sees it.
    /// Test: `XcodeContentsEncodingTests.contentsWhoseNamesAreNotUTF8AreRefused`.
    static func xcodeNameNotUTF8(_ data: Data) -> Bool {
        String(validating: data, as: UTF8.self) == nil
    }

    /// FoundationXML's `_NSXMLParserProcessingInstruction` calls `strlen` on a null pointer
    /// (SIGSEGV) for a processing instruction without data (`<?xm?>`, `<?xml?><?e`); XcodeContentsParser should refuse any processing instruction but the
    /// leading `<?xml …?>` declaration (Xcode writes none) before XMLParser sees the document.
    /// Test: `XcodeContentsEncodingTests.aProcessingInstructionIsRefused`.
    static func xcodeProcessingInstruction(_ data: Data) -> Bool {
        let bytes = [UInt8](data)
        let opener = (1..<max(1, bytes.count)).filter { bytes[$0 - 1] == UInt8(ascii: "<") && bytes[$0] == UInt8(ascii: "?") }
        guard let first = opener.first else { return false }
        let declaration = Array("<?xml".utf8)
        let leadingDeclaration = first == 1 && bytes.count > 5 && Array(bytes[0..<5]) == declaration
            && [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains(bytes[5])
        return !leadingDeclaration || opener.count > 1
    }

    /// toml++ (TOMLKit's CTOML) fails the assertion `is_bare_key_character(*cp) ||
    /// is_string_delimiter(*cp)` in `parse_key()` (abort) when a table header's name starts
    /// with any other character: `[é]`, `[!]`, `[ \u{7F}]`, `[[é]]`. ThemeLoader.parse should
    /// refuse such a header with a ThemeError before TOMLTable(string:) sees it.
    /// Test: `ThemeTableHeaderTests.aTableNameStartingWithAnInvalidCharacterIsRefused`.
    static func themeTableNameStartsBadly(_ data: Data) -> Bool {
        let text = String(decoding: data, as: UTF8.self)
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            var rest = Substring(line).drop { $0 == " " || $0 == "\t" }
            guard rest.first == "[" else { continue }
            rest = rest.dropFirst()
            if rest.first == "[" { rest = rest.dropFirst() }
            rest = rest.drop { $0 == " " || $0 == "\t" }
            guard let first = rest.unicodeScalars.first else { return true }
            let bare = first.isASCII && (first.properties.isAlphabetic || ("0"..."9").contains(first) || first == "_" || first == "-")
            if !(bare || first == "\"" || first == "'") { return true }
        }
        return false
    }
}
