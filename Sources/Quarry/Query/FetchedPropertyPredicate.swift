/// A fetched property's predicate, ready to bind to the object the property is read on.
///
/// `$FETCH_SOURCE` stands for that object (compared with a to-one: `author == $FETCH_SOURCE`)
/// and `$FETCH_SOURCE.key.path` for a value read from it; `$FETCHED_PROPERTY` for the
/// property's name. The parser reads `$NAME.key` only inside a `SUBQUERY`, so each
/// `$FETCH_SOURCE.path` is first rewritten to a plain variable of the same length, keeping
/// every column of a parse error where the model file has it.
struct FetchedPropertyPredicate {
    /// The variable standing for the source object itself.
    static let sourceVariable = "FETCH_SOURCE"
    /// The variable standing for the fetched property's name.
    static let propertyVariable = "FETCHED_PROPERTY"

    /// The parsed predicate (`nil`: every object of the destination).
    let predicate: ObjectPredicate?
    /// The source key path each rewritten variable stands for.
    let sourceKeyPaths: [String: String]

    /// Parses `text`.
    /// - Throws: ``QueryError`` naming the column at fault.
    init(_ text: String) throws {
        guard !text.allSatisfy(\.isWhitespace) else {
            predicate = nil
            sourceKeyPaths = [:]
            return
        }
        var rewritten = ""
        var paths: [String: String] = [:]
        let characters = Array(text)
        let marker = Array("$" + Self.sourceVariable + ".")
        var quote: Character?
        var i = 0
        while i < characters.count {
            let c = characters[i]
            if let q = quote {
                rewritten.append(c)
                if c == "\\", i + 1 < characters.count { rewritten.append(characters[i + 1]); i += 2; continue }
                if c == q { quote = nil }
                i += 1
                continue
            }
            if c == "'" || c == "\"" { quote = c }
            if c == "$", Array(characters[i..<min(characters.count, i + marker.count)]) == marker {
                var end = i + marker.count
                while end < characters.count, characters[end] == "." || characters[end] == "_" || characters[end].isLetter || characters[end].isNumber {
                    end += 1
                }
                let path = String(characters[(i + marker.count)..<end])
                // Same length as the original, so parse errors keep their columns.
                let short = "FSK\(paths.count)"
                let name = short + String(repeating: "_", count: max(0, end - i - 1 - short.count))
                paths[name] = path
                rewritten += "$" + name
                i = end
                continue
            }
            rewritten.append(c)
            i += 1
        }
        predicate = try ObjectPredicate(format: rewritten)
        sourceKeyPaths = paths
    }

    /// The predicate with its variables bound for `source`, the object fetched property
    /// `property` is read on.
    /// - Throws: ``QueryError`` for a source key path its entity cannot read, or a variable
    ///   other than these.
    func bound(source: ManagedObject, property: String, model: ManagedObjectModel) throws -> ObjectPredicate? {
        guard let predicate else { return nil }
        var values: [String: Value] = [
            Self.sourceVariable: .integer(source.objectID.primaryKey),
            Self.propertyVariable: .string(property),
        ]
        for (name, path) in sourceKeyPaths {
            let plan = try KeyPathPlan(path, entity: source.entity, model: model)
            let read = try plan.values(of: ObjectSubject(object: source))
            values[name] = plan.isSingleValued ? (read.first ?? .null) : .null
        }
        return try predicate.substituting(values)
    }
}
