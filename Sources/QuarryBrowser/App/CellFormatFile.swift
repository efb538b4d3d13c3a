import Foundation
import Quarry
import QuarryTUI
import TOMLKit

/// Reads the cell formats of `quarry browse --formats FILE`: a TOML file with a table per
/// column, named `[Entity.column]`, setting one of `number` (digits after the point, 0 to 9),
/// `date` (a date pattern) or `map` (a table of default text → text shown).
///
/// ```toml
/// [Ticker.price]
/// number = 2
/// [Ticker.listed]
/// date = "yyyy-MM-dd HH:mm"
/// [Ticker.sector]
/// map = { Energy = "⚡ Energy" }
/// ```
///
/// Every key is checked against the model: a malformed file, an unknown entity or column, an
/// unknown key or a bad value is refused with a ``CellFormatFileError`` naming the file, the
/// line and the key at fault.
public enum CellFormatFile {
    /// The keys a column's table may set (one of them).
    public static let formatKeys = ["date", "map", "number"]

    /// Reads the formats file at `url` for `model`'s entities.
    /// - Parameter file: How errors name the file (by default its path).
    /// - Throws: ``CellFormatFileError`` for an unreadable file or any bad key or value.
    public static func load(contentsOf url: URL, model: ManagedObjectModel, file: String? = nil) throws(CellFormatFileError) -> [CellFormatKey: CellFormat] {
        let name = file ?? url.path
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw CellFormatFileError(file: name, message: "cannot read it: \((error as NSError).localizedDescription)")
        }
        return try parse(text, file: name, model: model)
    }

    /// Reads formats from `text` for `model`'s entities; errors name `file`.
    /// - Throws: ``CellFormatFileError`` naming the file, the line and the key at fault.
    public static func parse(_ text: String, file: String, model: ManagedObjectModel) throws(CellFormatFileError) -> [CellFormatKey: CellFormat] {
        let table: TOMLTable
        do {
            // toml++ aborts on some malformed text: refused before it sees it.
            try ThemeSourcePrecheck.check(text, file: file)
            table = try TOMLTable(string: text)
        } catch let error as ThemeError {
            throw CellFormatFileError(file: file, line: error.line, message: error.message)
        } catch let error as TOMLParseError {
            throw CellFormatFileError(file: file, line: error.source.begin.line, message: error.description)
        } catch {
            throw CellFormatFileError(file: file, message: "\(error)")
        }
        let reader = Reader(file: file, model: model, locator: ThemeSourceLocator(text: text))
        return try reader.formats(in: table)
    }

    /// Checks a parsed file's keys, in sorted order so the same file always reports the same first error.
    private struct Reader {
        let file: String
        let model: ManagedObjectModel
        let locator: ThemeSourceLocator

        func formats(in table: TOMLTable) throws(CellFormatFileError) -> [CellFormatKey: CellFormat] {
            var result: [CellFormatKey: CellFormat] = [:]
            for entityName in table.keys.sorted() {
                guard let entity = model.entity(named: entityName) else {
                    let names = model.entities.map(\.name).joined(separator: ", ")
                    // `[Tickr.price]` names no `Tickr` line of its own: located by its first column.
                    let located = table[entityName]?.table?.keys.sorted().first.map { "\(entityName).\($0)" }
                    throw error(at: entityName, locatedBy: located, "no entity '\(entityName)' in the model (it has \(names))")
                }
                guard let columns = table[entityName]?.table else {
                    throw error(at: entityName, "must be a table of columns, like [\(entityName).column]")
                }
                let known = ColumnSpec.columns(for: entity, model: model).map(\.key)
                for column in columns.keys.sorted() {
                    let key = "\(entityName).\(column)"
                    guard known.contains(column) else {
                        throw error(at: key, "\(entityName) has no column '\(column)' (it has \(known.joined(separator: ", ")))")
                    }
                    guard let settings = columns[column]?.table else {
                        throw error(at: key, "must be a table, like [\(key)] followed by number, date or map")
                    }
                    result[CellFormatKey(entity: entityName, column: column)] = try format(settings, key: key)
                }
            }
            return result
        }

        private func format(_ settings: TOMLTable, key: String) throws(CellFormatFileError) -> CellFormat {
            let keys = settings.keys.sorted()
            if let unknown = keys.first(where: { !CellFormatFile.formatKeys.contains($0) }) {
                throw error(at: "\(key).\(unknown)", "unknown key (a column's format is number, date or map)")
            }
            guard keys.count == 1, let name = keys.first, let value = settings[name] else {
                throw error(at: key, keys.isEmpty ? "set one of number, date or map" : "set only one of number, date or map (it sets \(keys.joined(separator: ", ")))")
            }
            let at = "\(key).\(name)"
            switch name {
            case "number":
                guard let decimals = value.int, (0...9).contains(decimals) else {
                    throw error(at: at, "must be the digits after the point, 0 to 9 (number = 2)")
                }
                return .number(decimals: decimals)
            case "date":
                guard let pattern = value.string, !pattern.isEmpty else {
                    throw error(at: at, "must be a date pattern in quotes (date = \"yyyy-MM-dd HH:mm\")")
                }
                return .date(pattern)
            default:
                guard let table = value.table else {
                    throw error(at: at, "must be a table of texts (map = { Energy = \"⚡ Energy\" })")
                }
                var mapping: [String: String] = [:]
                for from in table.keys.sorted() {
                    guard let to = table[from]?.string else {
                        throw error(at: "\(at).\(from)", "must be a text in quotes")
                    }
                    mapping[from] = to
                }
                return .mapping(mapping)
            }
        }

        /// The error for `key`, at the line of `locatedBy` (a key inside it) when given, else of `key`.
        private func error(at key: String, locatedBy inner: String? = nil, _ message: String) -> CellFormatFileError {
            CellFormatFileError(file: file, line: locator.line(ofKey: inner ?? key), key: key, message: message)
        }
    }
}

/// Why a cell formats file was refused: the file, the line and the key at fault, and what is
/// wrong (the form theme files' errors take).
public typealias CellFormatFileError = TOMLFileError
