import Foundation

/// Why a ``ContextOperation`` (an ``ExportOperation``, a ``BlockContextOperation``) did not complete.
public enum ContextOperationError: Error, Equatable, CustomStringConvertible {
    /// The operation was cancelled: before it started (nothing ran) or between chunks (the
    /// chunk it was working on was rolled back; chunks saved before stay saved).
    case cancelled(operation: String)

    public var description: String {
        switch self {
        case .cancelled(let name): return "\(name): cancelled; its unsaved chunk was rolled back"
        }
    }
}
