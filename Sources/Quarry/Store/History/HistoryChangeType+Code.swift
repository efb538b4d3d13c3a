/// How a change type is stored in a history change row (`Z_HISTORYCHANGE.Z_TYPE`), the same in
/// every SQL back end.
extension HistoryChangeType {
    /// The `Z_TYPE` code of this change type.
    var code: Int64 {
        switch self {
        case .insert: return 1
        case .update: return 2
        case .delete: return 3
        }
    }

    /// The change type of a `Z_TYPE` (`nil` for a code this Quarry does not know).
    init?(code: Int64) {
        switch code {
        case 1: self = .insert
        case 2: self = .update
        case 3: self = .delete
        default: return nil
        }
    }
}
