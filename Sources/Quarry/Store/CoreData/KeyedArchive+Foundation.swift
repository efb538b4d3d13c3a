import Foundation

/// How Foundation's property-list values map onto the reader's, on Linux and elsewhere.
extension KeyedArchive {
    /// The UID `value` holds: swift-corelibs-foundation's `_NSKeyedArchiverUID` (its stored
    /// `value`, read by reflection since the class is internal), or a `{CF$UID = n}` dictionary.
    static func uid(_ value: Any) -> Int? {
        let object = value as AnyObject
        if String(describing: type(of: object)).hasSuffix("KeyedArchiverUID") {
            for child in Mirror(reflecting: object).children where child.label == "value" {
                if let n = child.value as? UInt32 { return Int(n) }
                if let n = child.value as? Int { return n }
            }
            return nil
        }
        if let dictionary = stringKeyed(value), dictionary.count == 1, let n = dictionary["CF$UID"] {
            if type(of: n) == Bool.self { return nil }
            if let number = n as? NSNumber, !isFloatingPoint(number) { return number.intValue }
            if let i = n as? Int { return i }
        }
        return nil
    }

    /// `value` as a scalar (string, number, Boolean, data, date); `nil` for anything else.
    static func scalar(_ value: Any) -> KeyedArchiveValue? {
        if let s = value as? String { return s == "$null" ? .null : .string(s) }
        if type(of: value) == Bool.self, let b = value as? Bool { return .bool(b) }
        if let d = value as? Data { return .data(d) }
        if let d = value as? Date { return .date(d) }
        if let n = value as? NSNumber {
            if isFloatingPoint(n) { return .double(n.doubleValue) }
            return .integer(n.int64Value)
        }
        if let i = value as? Int { return .integer(Int64(i)) }
        if let d = value as? Double { return .double(d) }
        return nil
    }

    /// `value` as a dictionary with string keys; `nil` when it is not one (or a key is not a string).
    static func stringKeyed(_ value: Any) -> [String: Any]? {
        if let d = value as? [String: Any] { return d }
        guard let d = value as? [AnyHashable: Any] else { return nil }
        var result: [String: Any] = [:]
        for (key, element) in d {
            guard let k = key.base as? String else { return nil }
            result[k] = element
        }
        return result
    }

    /// A short description of what `value` is, for error messages.
    static func describe(_ value: Any) -> String {
        if uid(value) != nil { return "a UID" }
        if let s = scalar(value) { return s.kind }
        if value is [Any] { return "an array" }
        if stringKeyed(value) != nil { return "a dictionary" }
        return String(describing: type(of: value))
    }

    private static func isFloatingPoint(_ n: NSNumber) -> Bool {
        let type = String(cString: n.objCType)
        return type == "d" || type == "f"
    }
}
