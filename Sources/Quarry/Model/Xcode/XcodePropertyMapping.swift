import Foundation

/// Turns the XML attributes of Xcode's `<attribute>` and `<relationship>` elements into Quarry
/// property descriptions.
///
/// Xcode writes only what differs from its defaults: a property is required unless it says
/// `optional="YES"`, a relationship is to-one unless `toMany="YES"`, and so on.
struct XcodePropertyMapping {
    /// The file being read, for error messages.
    let path: String
    /// The line of the element being mapped.
    let line: Int
    /// The entity the property belongs to.
    let entity: String

    /// Whether `value` is Xcode's spelling of true.
    static func flag(_ value: String?) -> Bool { value == "YES" }

    /// The renaming identifier of an entity or property element: Xcode's model editor writes
    /// its "Renaming ID" field as `elementID`; `renamingIdentifier` is accepted too.
    static func renamingIdentifier(_ xml: [String: String]) -> String? {
        (xml["renamingIdentifier"] ?? xml["elementID"]).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Maps an `<attribute>` element. Warnings for accepted but approximated features are
    /// appended to `warnings`.
    func attribute(_ xml: [String: String], warnings: inout [ModelWarning]) throws -> AttributeDescription {
        let name = try required("name", of: "attribute", in: xml)
        let typeName = xml["attributeType"] ?? "Undefined"
        guard let type = AttributeType(rawValue: typeName) else {
            throw ModelError.unsupported(
                path: path, line: line,
                feature: "attribute type '\(typeName)' of '\(entity).\(name)'")
        }
        if type == .undefined && !Self.flag(xml["transient"]) {
            // Core Data requires Undefined attributes to be transient; say so with the file.
            throw ModelError.malformedFile(
                path: path, line: line, column: 0,
                reason: ModelError.undefinedNotTransient(entity: entity, attribute: name).description)
        }
        let attribute = AttributeDescription(
            name: name, type: type,
            isOptional: Self.flag(xml["optional"]),
            isTransient: Self.flag(xml["transient"]),
            defaultValue: xml["defaultValueString"].flatMap { lenientDefault($0, for: type, of: name, warnings: &warnings) },
            minValue: try bound("minValueString", of: name, in: xml),
            maxValue: try bound("maxValueString", of: name, in: xml),
            regularExpression: xml["regularExpressionString"],
            isIndexed: Self.flag(xml["indexed"]),
            renamingIdentifier: XcodePropertyMapping.renamingIdentifier(xml),
            valueTransformerName: type == .transformable ? xml["valueTransformerName"].flatMap { $0.isEmpty ? nil : $0 } : nil,
            preservesValueInHistoryOnDeletion: Self.flag(xml["preserveAfterDeletion"]))
        // A rule that cannot be right would refuse every value (or none) without saying why.
        if let problem = attribute.ruleDefinitionProblem {
            throw ModelError.malformedFile(path: path, line: line, column: 0, reason: "attribute '\(entity).\(name)': \(problem.reason)")
        }
        return attribute
    }

    /// Maps a `<relationship>` element.
    func relationship(_ xml: [String: String]) throws -> RelationshipDescription {
        let name = try required("name", of: "relationship", in: xml)
        guard let destination = xml["destinationEntity"], !destination.isEmpty else {
            throw ModelError.missingDestination(entity: entity, relationship: name)
        }
        let ruleName = xml["deletionRule"] ?? DeleteRule.nullify.rawValue
        guard let rule = DeleteRule(rawValue: ruleName) else {
            throw ModelError.unsupported(
                path: path, line: line, feature: "deletion rule '\(ruleName)' of '\(entity).\(name)'")
        }
        let toMany = Self.flag(xml["toMany"])
        // Xcode writes maxCount="1" on every to-one relationship; counts only mean something
        // for to-many ones.
        let minCount = toMany ? try count("minCount", of: name, in: xml) : 0
        let maxCount = toMany ? try count("maxCount", of: name, in: xml) : 0
        return RelationshipDescription(
            name: name, destination: destination, inverse: xml["inverseName"].flatMap { $0.isEmpty ? nil : $0 },
            isToMany: toMany, isOrdered: toMany && Self.flag(xml["ordered"]),
            isOptional: Self.flag(xml["optional"]), deleteRule: rule,
            minCount: minCount, maxCount: maxCount,
            renamingIdentifier: XcodePropertyMapping.renamingIdentifier(xml))
    }

    /// The value of XML attribute `key`, which `element` must have.
    func required(_ key: String, of element: String, in xml: [String: String]) throws -> String {
        guard let value = xml[key], !value.isEmpty else {
            throw ModelError.malformedFile(
                path: path, line: line, column: 0,
                reason: "<\(element)> in entity '\(entity)' has no \(key)")
        }
        return value
    }

    private func bound(_ key: String, of attribute: String, in xml: [String: String]) throws -> Double? {
        guard let text = xml[key] else { return nil }
        guard let value = Double(text) else {
            throw ModelError.malformedFile(
                path: path, line: line, column: 0,
                reason: "\(key) '\(text)' of '\(entity).\(attribute)' is not a number")
        }
        return value
    }

    private func count(_ key: String, of relationship: String, in xml: [String: String]) throws -> Int {
        guard let text = xml[key] else { return 0 }
        guard let value = Int(text), value >= 0 else {
            throw ModelError.malformedFile(
                path: path, line: line, column: 0,
                reason: "\(key) '\(text)' of '\(entity).\(relationship)' is not a count")
        }
        return value
    }

    /// A default Core Data accepts although it does not fit the type as written, read the way
    /// Core Data reads it, with a ``ModelWarning/xcodeDefaultValue`` warning: a Boolean written as
    /// a number (`"1.0"`, `"0.0"`), an integer written as `"YES"`/`"NO"`, and any default of a
    /// Binary attribute (Core Data ignores those). Anything else goes to ``defaultValue(_:for:)``;
    /// text that does not fit the type there (a UUID default that is not a UUID, an integer out
    /// of its type's range) is dropped with the same warning.
    func lenientDefault(_ text: String, for type: AttributeType, of name: String, warnings: inout [ModelWarning]) -> Value? {
        func warn(_ detail: String) {
            warnings.append(.xcode(ModelWarning.xcodeDefaultValue, path: path, line: line, "'\(entity).\(name)': \(detail)"))
        }
        switch type {
        case .boolean where !["YES", "NO", "1", "0", "true", "false"].contains(text):
            guard let number = Double(text) else { break }
            warn("Boolean default '\(text)' read as \(number != 0 ? "YES" : "NO"), as Core Data reads it")
            return .bool(number != 0)
        case .integer16, .integer32, .integer64:
            guard text == "YES" || text == "NO" else { break }
            warn("integer default '\(text)' read as \(text == "YES" ? 1 : 0), as Core Data reads it")
            return .integer(text == "YES" ? 1 : 0)
        case .binary, .undefined:
            if !text.isEmpty { warn("\(type.rawValue) default ignored, as Core Data ignores it") }
            return nil
        default:
            break
        }
        let value = Self.defaultValue(text, for: type)
        // Core Data loads a model whose default does not fit its type (a UUID attribute whose
        // default is not a UUID) and uses no default; refusing the model would refuse what
        // Core Data opens.
        guard value.coerced(to: type) != nil else {
            warn("default '\(text)' is not \(Self.article(for: type)); dropped, as Core Data uses no default then")
            return nil
        }
        return value
    }

    /// `type` with its article, as a message names it (`a UUID`, `an integer`).
    private static func article(for type: AttributeType) -> String {
        switch type {
        case .integer16, .integer32, .integer64: return "an integer that fits \(type.rawValue)"
        case .double, .float: return "a number"
        case .decimal: return "a decimal number"
        case .boolean: return "a Boolean"
        case .date: return "a date (seconds since 2001-01-01)"
        case .uuid: return "a UUID"
        case .uri: return "a URI"
        default: return "a \(type.rawValue) value"
        }
    }

    /// The value Xcode's `defaultValueString` stands for, in the canonical ``Value`` case of
    /// `type` (the case ``ModelBuilder`` users write), so loaders agree on equal definitions.
    ///
    /// Text that does not parse is kept as `.string`, which the model resolver then rejects
    /// with ``ModelError/invalidDefault(entity:attribute:value:)`` naming the attribute.
    static func defaultValue(_ text: String, for type: AttributeType) -> Value {
        let parsed: Value?
        switch type {
        case .integer16, .integer32, .integer64:
            parsed = Int64(text).map(Value.integer) ?? Double(text).flatMap { Value.double($0).coerced(to: type) }
        case .double, .float:
            parsed = Double(text).map(Value.double)
        case .decimal:
            parsed = Decimal(string: text).map(Value.decimal)
        case .boolean:
            switch text {
            case "YES", "1", "true": parsed = .bool(true)
            case "NO", "0", "false": parsed = .bool(false)
            default: parsed = nil
            }
        case .date:
            // Xcode stores dates as seconds since the 2001-01-01 reference date.
            parsed = Double(text).map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        case .string:
            parsed = .string(text)
        case .uuid:
            parsed = UUID(uuidString: text).map(Value.uuid)
        case .uri:
            parsed = URL(string: text).map(Value.uri)
        case .transformable:
            // A transformable default that is not JSON is kept as the text it is, not lost.
            parsed = .json((try? JSONValue(jsonText: text)) ?? .string(text))
        case .binary, .undefined:
            parsed = nil
        }
        return parsed ?? .string(text)
    }
}
