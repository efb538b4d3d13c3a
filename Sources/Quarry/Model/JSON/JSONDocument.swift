/// A parsed JSON document that remembers where each value starts in the source text, so the
/// model loader can point at the exact line and column of a bad key or value.
///
/// Numbers keep their source text, so 64-bit integers are read without going through `Double`.
struct JSONDocument {
    /// One JSON value and its byte offset in the text.
    struct Node {
        enum Kind {
            case null
            case bool(Bool)
            case number(String)
            case string(String)
            case array([Node])
            /// Members in source order (keys are unique: the parser refuses duplicates).
            case object([(key: String, keyOffset: Int, value: Node)])
        }

        var kind: Kind
        var offset: Int
        /// The byte offset just past the value's last byte.
        var end: Int

        /// A short name of the value's JSON type, for error messages.
        var typeName: String {
            switch kind {
            case .null: return "null"
            case .bool: return "a boolean"
            case .number: return "a number"
            case .string: return "a string"
            case .array: return "an array"
            case .object: return "an object"
            }
        }
    }

    /// A syntax fault: what was expected, at which byte offset.
    struct SyntaxError: Error {
        var offset: Int
        var reason: String
    }

    let root: Node
    private let bytes: [UInt8]

    /// Parses `text`.
    /// - Throws: ``SyntaxError`` at the first fault.
    init(text: String) throws {
        let bytes = Array(text.utf8)
        self.bytes = bytes
        var parser = JSONParser(bytes: bytes)
        self.root = try parser.parseDocument()
    }

    /// The value's text exactly as the document has it (spacing and number spelling kept).
    func sourceText(of node: Node) -> String {
        String(decoding: bytes[node.offset..<node.end], as: UTF8.self)
    }

    /// The 1-based line and column (in characters) of byte `offset` of `text`.
    static func position(of offset: Int, in text: String) -> (line: Int, column: Int) {
        let bytes = Array(text.utf8)
        let end = min(max(offset, 0), bytes.count)
        var line = 1
        var lineStart = 0
        for i in 0..<end where bytes[i] == UInt8(ascii: "\n") {
            line += 1
            lineStart = i + 1
        }
        let prefix = String(decoding: bytes[lineStart..<end], as: UTF8.self)
        return (line, prefix.count + 1)
    }

    /// The position of `offset` in this document's text.
    func position(of offset: Int) -> (line: Int, column: Int) {
        Self.position(of: offset, in: String(decoding: bytes, as: UTF8.self))
    }
}
