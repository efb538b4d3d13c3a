import Foundation

/// One parsed file of a JSON store, able to name the line and column of any of its values in
/// an error (through ``JSONDocument``, the parser the model loader uses).
struct JSONStoreFileText {
    /// The file's path, for messages.
    let path: String
    let document: JSONDocument

    /// Parses `data`, the contents of the file at `path`.
    /// - Throws: ``JSONStoreError/malformedFile(path:line:column:reason:)`` at the first syntax fault.
    init(data: Data, path: String) throws {
        self.path = path
        guard let text = String(data: data, encoding: .utf8) else {
            throw JSONStoreError.malformedFile(path: path, line: 0, column: 0, reason: "file is not UTF-8 text")
        }
        do {
            document = try JSONDocument(text: text)
        } catch let error as JSONDocument.SyntaxError {
            let (line, column) = JSONDocument.position(of: error.offset, in: text)
            throw JSONStoreError.malformedFile(path: path, line: line, column: column, reason: error.reason)
        }
    }

    /// Reads and parses the file at `url`.
    static func read(_ url: URL) throws -> JSONStoreFileText {
        let data: Data
        let kind = FileKind(path: url.path)
        guard kind.kind == .regularFile || kind.kind == .missing else {
            throw JSONStoreError.io(path: url.path, reason: "is \(kind), not a regular file; not read")
        }
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw JSONStoreError.io(path: url.path, reason: "cannot read: \(error.localizedDescription)")
        }
        return try JSONStoreFileText(data: data, path: url.path)
    }

    /// An error at `node`.
    func fault(_ node: JSONDocument.Node, _ reason: String) -> JSONStoreError {
        fault(at: node.offset, reason)
    }

    /// An error at byte `offset`.
    func fault(at offset: Int, _ reason: String) -> JSONStoreError {
        let (line, column) = document.position(of: offset)
        return JSONStoreError.malformedFile(path: path, line: line, column: column, reason: reason)
    }

    /// The members of `node`, which must be an object.
    func members(of node: JSONDocument.Node, _ what: @autoclosure () -> String) throws -> [(key: String, keyOffset: Int, value: JSONDocument.Node)] {
        guard case .object(let members) = node.kind else { throw fault(node, "expected \(what()) as an object, found \(node.typeName)") }
        return members
    }

    /// The string `node` holds.
    func string(_ node: JSONDocument.Node, _ what: @autoclosure () -> String) throws -> String {
        guard case .string(let s) = node.kind else { throw fault(node, "expected \(what()) as a string, found \(node.typeName)") }
        return s
    }

    /// The integer `node` holds.
    func integer(_ node: JSONDocument.Node, _ what: @autoclosure () -> String) throws -> Int64 {
        guard case .number(let text) = node.kind, let value = Int64(text) else {
            throw fault(node, "expected \(what()) as an integer, found \(node.typeName)")
        }
        return value
    }

    /// `node` as JSON text again (numbers keep their source text, so nothing is rounded).
    static func text(of node: JSONDocument.Node) -> String {
        switch node.kind {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let text): return text
        case .string(let s): return JSONModelValues.quoted(s)
        case .array(let items): return "[" + items.map(text(of:)).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { JSONModelValues.quoted($0.key) + ":" + text(of: $0.value) }.joined(separator: ",") + "}"
        }
    }
}
