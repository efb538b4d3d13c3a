import Foundation

/// Who a history transaction names as its author when the saving context has no name.
enum HistoryAuthor {
    /// `<executable>[pid]`: the author of saves whose context has no name.
    static let processLabel = "\(ProcessInfo.processInfo.processName)[\(ProcessInfo.processInfo.processIdentifier)]"
}
