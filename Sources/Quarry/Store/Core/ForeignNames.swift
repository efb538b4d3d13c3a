/// How a database Quarry did not make (an SQLite file, a PostgreSQL schema) names its
/// entities, attributes and relationships: its own names, made valid and unique.
enum ForeignNames {
    /// `name` with `.` (the key-path separator) and control characters replaced by `_`.
    static func sanitized(_ name: String, what: String, path: String, warnings: inout [String]) -> String {
        let cleaned = String(String.UnicodeScalarView(name.unicodeScalars.map {
            $0 == "." || $0.properties.generalCategory.isControlLike ? "_" : $0
        }))
        if cleaned != name { warnings.append("\(path): \(what) is shown as \(cleaned) (a name cannot hold '.' or control characters)") }
        return cleaned
    }

    /// `name`, or `name_2`, `name_3`… when a case-insensitively equal name was taken.
    static func unique(_ name: String, in taken: inout Set<String>) -> String {
        var candidate = name
        var n = 2
        while taken.contains(candidate.lowercased()) {
            candidate = "\(name)_\(n)"
            n += 1
        }
        taken.insert(candidate.lowercased())
        return candidate
    }

    /// The to-one's name: the column without its `_id`/`Id` suffix (`author_id` → `author`,
    /// `authorId` → `author`), else the destination's name, else `<column>_ref`, unused in the entity.
    static func relationshipName(_ column: String, destination: String, taken: inout Set<String>) -> String {
        var candidates: [String] = []
        let lower = column.lowercased()
        if lower.hasSuffix("_id"), column.count > 3 { candidates.append(String(column.dropLast(3))) }
        if column.hasSuffix("Id") || column.hasSuffix("ID"), column.count > 2 { candidates.append(String(column.dropLast(2))) }
        candidates += [destination, "\(column)_ref"]
        for candidate in candidates where !candidate.isEmpty && !taken.contains(candidate.lowercased()) {
            taken.insert(candidate.lowercased())
            return candidate
        }
        return unique("\(column)_ref", in: &taken)
    }

    /// The inverse to-many's name: the referencing entity's, else `<entity>_by_<column>`.
    static func inverseName(of entity: String, column: String, taken: inout Set<String>) -> String {
        if !taken.contains(entity.lowercased()) {
            taken.insert(entity.lowercased())
            return entity
        }
        return unique("\(entity)_by_\(column)", in: &taken)
    }
}
