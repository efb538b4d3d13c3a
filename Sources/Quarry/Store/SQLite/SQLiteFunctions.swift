import Foundation
import GRDB

/// The SQL functions and collations every Quarry connection gets, so compiled predicates and
/// sorts run the very same Swift code as the in-memory back end (``StringMatching``,
/// ``StandardStringOrder``).
enum SQLiteFunctions {
    /// `quarry_fold(x, flags)`: text folded by ``StringMatching/fold(_:_:)`` (flags: 1 case,
    /// 2 diacritics); other values unchanged.
    static let fold = DatabaseFunction("quarry_fold", argumentCount: 2, pure: true) { args in
        guard let text = String.fromDatabaseValue(args[0]), args[0].storage.isText else { return args[0] }
        return StringMatching.fold(text, ComparisonOptions(rawValue: Int.fromDatabaseValue(args[1]) ?? 0))
    }

    /// `quarry_match(op, text, pattern, flags)`: 1 when `text op pattern` holds for a string
    /// operator (`BEGINSWITH`, `ENDSWITH`, `CONTAINS`, `LIKE`, `MATCHES`), else 0; 0 for
    /// anything that is not text.
    static let match = DatabaseFunction("quarry_match", argumentCount: 4, pure: true) { args in
        guard args[1].storage.isText, args[2].storage.isText,
              let op = String.fromDatabaseValue(args[0]).flatMap(ComparisonOperator.init(rawValue:)),
              let text = String.fromDatabaseValue(args[1]), let pattern = String.fromDatabaseValue(args[2])
        else { return 0 }
        let options = ComparisonOptions(rawValue: Int.fromDatabaseValue(args[3]) ?? 0)
        // A pattern over its step budget fails the statement (SQLiteStore.read turns the
        // message back into QueryError.regexTooCostly): never a silent "no match".
        return try StringMatching.match(op, text: text, pattern: pattern, options: options) ? 1 : 0
    }

    /// Case-folded binary order (``SortKey/StringComparison/caseInsensitive``).
    static let noCase = DatabaseCollation("QUARRY_NOCASE") { a, b in
        order(StringMatching.compareBinary(StringMatching.fold(a, .caseInsensitive), StringMatching.fold(b, .caseInsensitive)))
    }

    /// Finder-like order (``SortKey/StringComparison/localizedStandard``).
    static let standard = DatabaseCollation("QUARRY_STANDARD") { a, b in
        order(StandardStringOrder.compare(a, b))
    }

    private static func order(_ c: Int) -> ComparisonResult {
        c < 0 ? .orderedAscending : c > 0 ? .orderedDescending : .orderedSame
    }

    /// Adds the functions and collations to a connection.
    static func register(_ db: Database) {
        db.add(function: fold)
        db.add(function: match)
        db.add(collation: noCase)
        db.add(collation: standard)
    }
}

private extension DatabaseValue.Storage {
    var isText: Bool {
        if case .string = self { return true }
        return false
    }
}
