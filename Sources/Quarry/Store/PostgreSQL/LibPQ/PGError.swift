import CLibPQ
import Foundation

/// What libpq reported: the server's error for a statement (with its SQLSTATE), or a failure of
/// the connection itself (never connected, or lost).
enum PGError: Error, Sendable, CustomStringConvertible {
    /// The server refused a statement.
    case server(sqlState: String, message: String, detail: String?)
    /// The connection could not be made or was lost; libpq's message, one line.
    case connection(String)

    /// The SQLSTATE of a server error, else `""`.
    var sqlState: String {
        if case .server(let state, _, _) = self { return state }
        return ""
    }

    var description: String {
        switch self {
        case .server(_, let message, let detail): return detail.map { "\(message) (\($0))" } ?? message
        case .connection(let message): return message
        }
    }

    /// The error a failed `result` carries.
    static func from(_ result: OpaquePointer, connection: OpaquePointer) -> PGError {
        func field(_ code: Character) -> String? {
            PQresultErrorField(result, Int32(code.asciiValue!)).map { String(cString: $0) }
        }
        guard let state = field("C") else {
            let text = String(cString: PQresultErrorMessage(result))
            return .connection(oneLine(text.isEmpty ? message(connection) : text))
        }
        return .server(sqlState: state, message: field("M") ?? oneLine(String(cString: PQresultErrorMessage(result))), detail: field("D"))
    }

    /// The connection's last error message, one line.
    static func message(_ connection: OpaquePointer) -> String {
        oneLine(String(cString: PQerrorMessage(connection)))
    }

    /// `text` without libpq's trailing newline, its lines joined.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: "; ")
    }
}
