import Foundation

/// Refuses, before `XMLParser` sees them, documents that crash FoundationXML on Linux.
///
/// Found by the `xcode` fuzz target (`scripts/fuzz.sh`): FoundationXML traps on an element or
/// attribute name that is not UTF-8, and dereferences a null pointer on a processing instruction
/// that follows a declaration without a version (`<?xml?><?e`). Xcode writes UTF-8 with one
/// leading `<?xml version=… ?>` declaration and no other processing instruction, so refusing
/// anything else costs no real model and keeps every error a ``ModelError`` with a position.
enum XcodeDocumentPrecheck {
    /// Throws ``ModelError/malformedFile(path:line:column:reason:)`` for a document that is not
    /// UTF-8, whose leading declaration is not `<?xml version…`, that holds any other
    /// processing instruction outside comments and CDATA sections, or that stops before its
    /// closing `</model>` (cut short: reported where it ends, before the half element it ends in
    /// could be mistaken for a model error such as `unsupported attribute type 'Da'`).
    static func check(_ data: Data, path: String) throws {
        let bytes = [UInt8](data)
        if let bad = firstInvalidUTF8Offset(bytes) {
            throw error(at: bad, in: bytes, path: path, "the file is not UTF-8 text (invalid byte 0x\(String(bytes[bad], radix: 16, uppercase: true)))")
        }
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        try checkStartsAsXML(bytes, from: start, path: path)
        if bytes[start...].starts(with: Array("<?".utf8)) {
            guard isDeclaration(bytes, at: start) else {
                throw error(at: start, in: bytes, path: path, "the file must start with an <?xml version=\"1.0\"?> declaration")
            }
            // Nothing in a declaration may hold '>': it ends at the first one, which must close '?>'.
            guard let end = find([UInt8(ascii: ">")], in: bytes, from: start + 2), bytes[end - 1] == UInt8(ascii: "?") else {
                throw error(at: start, in: bytes, path: path, "the <?xml declaration is not closed by ?>")
            }
            start = end + 1
        }
        try checkWhole(bytes, from: start, path: path)
        var i = start
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "<"), i + 1 < bytes.count else { i += 1; continue }
            if bytes[i...].starts(with: Array("<!--".utf8)) {
                i = (find(Array("-->".utf8), in: bytes, from: i + 4) ?? bytes.count) + 3
            } else if bytes[i...].starts(with: Array("<![CDATA[".utf8)) {
                i = (find(Array("]]>".utf8), in: bytes, from: i + 9) ?? bytes.count) + 3
            } else if bytes[i + 1] == UInt8(ascii: "?") {
                throw error(at: i, in: bytes, path: path, "unexpected processing instruction (<?…?>): Core Data model files have none")
            } else {
                i += 1
            }
        }
    }

    /// The document, white space aside, ends with `</model>` (or a self-closed `<model …/>` root),
    /// as every file Xcode writes does.
    private static func checkWhole(_ bytes: [UInt8], from start: Int, path: String) throws {
        var end = bytes.count
        while end > start, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[end - 1]) { end -= 1 }
        // Empty, or some other XML (a plist): the parser names what it is.
        guard end > start, find(Array("<model".utf8), in: bytes, from: start) != nil else { return }
        let tail = bytes[start..<end]
        if tail.suffix(8).elementsEqual("</model>".utf8) || tail.suffix(3).elementsEqual("-->".utf8) { return }
        if tail.suffix(2).elementsEqual("/>".utf8), let open = tail.lastIndex(of: UInt8(ascii: "<")),
           bytes[open...].starts(with: Array("<model".utf8)) { return }
        throw error(at: bytes.count, in: bytes, path: path, "the file ends here, expected </model>: it is cut short")
    }

    /// Refuses a document that is blank, or whose first non-blank character is not `<`: the XML
    /// parser would call both "empty" (libxml2's "document is empty" is its error for any text
    /// that does not start a tag), which misleads about a large text file given by mistake.
    private static func checkStartsAsXML(_ bytes: [UInt8], from start: Int, path: String) throws {
        guard let first = bytes[start...].firstIndex(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            throw ModelError.malformedFile(path: path, line: 0, column: 0,
                                           reason: bytes.isEmpty ? "the file is empty" : "the file holds only white space")
        }
        guard bytes[first] != UInt8(ascii: "<") else { return }
        let lineEnd = bytes[first...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
        let opening = String(decoding: bytes[first..<lineEnd], as: UTF8.self)
        let shown = opening.count > 24 ? opening.prefix(24) + "…" : Substring(opening)
        throw error(at: first, in: bytes, path: path,
                    "not a model file: it starts with '\(shown)', not with '<' (an Xcode model's contents XML) or '{' (a JSON model)")
    }

    /// `<?xml` followed by white space and `version`, as XML requires of a declaration.
    private static func isDeclaration(_ bytes: [UInt8], at offset: Int) -> Bool {
        let rest = bytes[offset...]
        guard rest.starts(with: Array("<?xml".utf8)), offset + 5 < bytes.count else { return false }
        var i = offset + 5
        guard [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) else { return false }
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
        return bytes[i...].starts(with: Array("version".utf8))
    }

    /// The offset of the first byte of the first sequence that is not UTF-8 (`nil`: all valid).
    private static func firstInvalidUTF8Offset(_ bytes: [UInt8]) -> Int? {
        if String(validating: bytes, as: UTF8.self) != nil { return nil }
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
        guard from <= bytes.count - needle.count else { return nil }
        for i in from...(bytes.count - needle.count) where bytes[i] == needle[0] && bytes[i..<(i + needle.count)].elementsEqual(needle) {
            return i
        }
        return nil
    }

    private static func error(at offset: Int, in bytes: [UInt8], path: String, _ reason: String) -> ModelError {
        var line = 1
        var lineStart = 0
        for i in 0..<min(offset, bytes.count) where bytes[i] == UInt8(ascii: "\n") {
            line += 1
            lineStart = i + 1
        }
        return .malformedFile(path: path, line: line, column: offset - lineStart + 1, reason: reason)
    }
}
