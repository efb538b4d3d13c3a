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
    func value(at column: Int32, of attribute: AttributeDescription) -> Value {
        attribute.type == .transformable
            ? transformedValue(at: column, transformer: attribute.valueTransformerName)
            : value(at: column, type: attribute.type)
    }

    /// Reads a transformable attribute's column: bytes through its transformer; text as JSON
    /// (stores written before transformers, and values no transformer could take). Bytes whose
    /// transformer is not registered stay the stored bytes (``Value/data(_:)``), so that
    /// nothing is lost and writing the object back writes them unchanged.
    func transformedValue(at column: Int32, transformer name: String?) -> Value {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_NULL: return .null
        case SQLITE_BLOB:
            let stored = value(at: column, type: .binary)
            guard case .data(let data) = stored else { return .null }
            guard let transformer = AttributeTransformers.transformer(for: name) else { return stored }
            guard let json = try? transformer.value(from: data) else { return .null } // issue 36 leftover: a transformer that cannot decode the stored bytes reads as NULL (to become a ColumnDecodingError)
            return .json(json)
        default:
            return value(at: column, type: .transformable)
        }
    }
}
