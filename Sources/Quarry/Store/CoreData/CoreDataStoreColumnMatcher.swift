/// Finds the column of a Core Data table that holds a property, by name against the table's
/// actual columns.
///
/// Core Data names a property's column `Z<NAME>`; when several entities sharing one table
/// declare the same name it numbers the others `Z<NAME>1`, `Z<NAME>2`… (older stores and some
/// tools write `Z<n><NAME>`); a to-one whose destination has sub-entities gets an entity column
/// `Z<n>_<NAME>` beside its key; an ordered to-many's order lives in `Z_FOK_<INVERSE>`. The
/// numbers drift between model versions, so they are never computed, only matched.
struct CoreDataStoreColumnMatcher {
    /// The table's columns.
    let columns: [CoreDataStoreSchema.Column]

    /// Columns that may hold the value of a property (attribute or to-one key) named `name`:
    /// `Z<NAME>` first, then `Z<NAME><n>` by `n`, then `Z<n><NAME>`. `excluded` are the exact
    /// names of other properties (so `ZNAME1` of a property `name1` is never a variant of `name`).
    func valueCandidates(_ name: String, excluded: Set<String>) -> [CoreDataStoreSchema.Column] {
        let upper = name.uppercased()
        var ranked: [(rank: Int, column: CoreDataStoreSchema.Column)] = []
        for column in columns {
            let c = column.name.uppercased()
            if c == "Z" + upper {
                ranked.append((0, column))
            } else if excluded.contains(c) {
                continue
            } else if let n = Self.number(c, after: "Z" + upper) {
                ranked.append((1 + n, column))
            } else if let rest = Self.droppingNumber(c, after: "Z"), rest == upper {
                ranked.append((1_000_000, column))
            }
        }
        return ranked.sorted { $0.rank < $1.rank }.map(\.column)
    }

    /// Columns that may hold the destination entity number of to-one `name`: `Z<n>_<NAME>`
    /// (then its numbered variants), then `Z<n><NAME>` when that is no property's column.
    func entityCandidates(_ name: String, excluded: Set<String>) -> [CoreDataStoreSchema.Column] {
        let upper = name.uppercased()
        var ranked: [(rank: Int, column: CoreDataStoreSchema.Column)] = []
        for column in columns {
            let c = column.name.uppercased()
            guard let rest = Self.droppingNumber(c, after: "Z") else { continue }
            if rest == "_" + upper {
                ranked.append((0, column))
            } else if let n = Self.number(rest, after: "_" + upper) {
                ranked.append((1 + n, column))
            } else if rest == upper, !excluded.contains(c) {
                ranked.append((1_000_000, column))
            }
        }
        return ranked.sorted { $0.rank < $1.rank }.map(\.column)
    }

    /// Columns that may hold the order of an ordered to-many whose inverse is `inverse`.
    func orderCandidates(_ inverse: String) -> [CoreDataStoreSchema.Column] {
        let upper = "Z_FOK_" + inverse.uppercased()
        return columns.filter { c in
            let name = c.name.uppercased()
            return name == upper || Self.number(name, after: upper) != nil
        }.sorted { $0.name.count < $1.name.count }
    }

    /// `n` when `text` is `prefix` followed by decimal digits only.
    static func number(_ text: String, after prefix: String) -> Int? {
        guard text.hasPrefix(prefix) else { return nil }
        let digits = text.dropFirst(prefix.count)
        guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit) else { return nil }
        return Int(digits.prefix(9))
    }

    /// What follows `prefix` and one or more decimal digits in `text`, or `nil`.
    static func droppingNumber(_ text: String, after prefix: String) -> String? {
        guard text.hasPrefix(prefix) else { return nil }
        let rest = text.dropFirst(prefix.count)
        let digits = rest.prefix { $0.isASCIIDigit }
        guard !digits.isEmpty else { return nil }
        return String(rest.dropFirst(digits.count))
    }

    /// Whether a column declared `declared` can hold an attribute of `type` as Core Data
    /// writes it (a preference between candidates, never a requirement).
    static func fits(_ declared: String, _ type: AttributeType) -> Bool {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: return declared.contains("INT")
        case .double, .float: return declared.contains("FLOAT") || declared.contains("REAL") || declared.contains("DOUB")
        case .string, .uri: return declared.contains("CHAR") || declared.contains("TEXT")
        case .date: return declared.contains("TIMESTAMP") || declared.contains("DATE")
        case .decimal: return declared.contains("DECIMAL") || declared.contains("NUM")
        case .binary, .transformable, .uuid, .undefined: return declared.contains("BLOB") || declared.isEmpty
        }
    }
}

extension Character {
    /// `0`…`9`.
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
