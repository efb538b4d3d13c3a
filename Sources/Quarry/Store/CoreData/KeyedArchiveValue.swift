import Foundation

/// One decoded value of an NSKeyedArchiver archive.
///
/// Foundation's plain classes (strings, numbers, data, dates, arrays, sets, dictionaries) are
/// decoded in full; any other class is an ``object(_:)`` reference, read field by field through
/// ``KeyedArchive/object(_:at:)``, so graphs with back-pointers (an entity and its model) never
/// recurse.
enum KeyedArchiveValue: Equatable {
    /// `$null` (UID 0, or the `$null` string object).
    case null
    case string(String)
    case integer(Int64)
    case double(Double)
    case bool(Bool)
    case data(Data)
    case date(Date)
    /// An `NSArray`, `NSSet` or `NSOrderedSet` (and mutable variants), in archive order.
    case array([KeyedArchiveValue])
    /// An `NSDictionary` (or Core Data's `NSKnownKeysDictionary1`), in archive order.
    case dictionary([KeyedArchivePair])
    /// An object of another class, by UID and class name.
    case object(uid: Int, className: String)

    /// What kind of value this is, for error messages.
    var kind: String {
        switch self {
        case .null: return "$null"
        case .string: return "a string"
        case .integer: return "an integer"
        case .double: return "a real number"
        case .bool: return "a Boolean"
        case .data: return "data"
        case .date: return "a date"
        case .array: return "an array"
        case .dictionary: return "a dictionary"
        case .object(_, let className): return "an archived \(className)"
        }
    }
}

/// One key and value of an archived dictionary.
struct KeyedArchivePair: Equatable {
    var key: KeyedArchiveValue
    var value: KeyedArchiveValue
}
