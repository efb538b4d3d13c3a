import Foundation
import GRDBSQLite

extension SQLiteRawStatement {
    /// Binds a transformable attribute's value as the bytes its transformer makes. A value the
    /// transformer cannot take (a property list holds no `null`) is bound as JSON text, which
    /// ``transformedValue(at:transformer:)`` reads back the same: nothing is ever dropped.
    func bindTransformed(_ value: Value, transformer name: String?, at index: Int32) {
        guard case .json(let json) = value, let transformer = AttributeTransformers.transformer(for: name),
              let data = try? transformer.data(from: json) else { // a value the transformer cannot encode is refused below, naming the attribute
            bind(value, at: index)
            return
        }
        bind(.data(data), at: index)
    }

    /// Reads column `column` as a value of `attribute`: a transformable one through its
    /// transformer (``transformedValue(at:transformer:)``), any other by its type.
    /// - Throws: ``ColumnDecodingError`` naming the column when a transformable value cannot
    ///   be read (see ``transformedValue(at:transformer:)``).
    @inline(__always)
    func value(at column: Int32, of attribute: AttributeDescription) throws(ColumnDecodingError) -> Value {
        attribute.type == .transformable
            ? try transformedValue(at: column, transformer: attribute.valueTransformerName)
            : scalarValue(at: column, type: attribute.type)
    }

    /// Reads a transformable attribute's column: bytes through its transformer; text as JSON
    /// (stores written before transformers, and values no transformer could take). Bytes whose
    /// transformer is not registered stay the stored bytes (``Value/data(_:)``), so that
    /// nothing is lost and writing the object back writes them unchanged.
    /// - Throws: ``ColumnDecodingError`` naming the column when its transformer cannot read the
    ///   stored bytes, or its text is not JSON (never read as `NULL`).
    func transformedValue(at column: Int32, transformer name: String?) throws(ColumnDecodingError) -> Value {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_NULL: return .null
        case SQLITE_BLOB:
            let stored = scalarValue(at: column, type: .binary)
            guard case .data(let data) = stored else { return .null }
            guard let transformer = AttributeTransformers.transformer(for: name) else { return stored }
            do {
                return .json(try transformer.value(from: data))
            } catch {
                let which = name.map { "transformer '\($0)'" } ?? "the default transformer"
                throw ColumnDecodingError(column: columnName(at: column), expected: "transformable",
                                          reason: "\(which) cannot read the stored \(data.count) bytes (\(error))")
            }
        default:
            return try jsonValue(at: column)
        }
    }
}
