import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads the `contents` XML of an Xcode `.xcdatamodel` into a ``ModelDefinition``.
///
/// Elements that do not change the schema (`<elements>`, `<fetchRequest>`, `<configuration>`,
/// `<userInfo>`, `<fetchedProperty>`…) are skipped with a named ``ModelWarning``
/// (`xcode.ignored-element`); attribute types Quarry cannot store (`Undefined`, `ObjectID`) are
/// errors naming the entity and attribute; malformed XML is an error with the parser's line
/// and column.
final class XcodeModelParser: NSObject, XMLParserDelegate {
    private let path: String
    private var entities: [EntityDefinition] = []
    private var current: EntityDefinition?
    private var currentUnique: [String]?
    private var currentIndex: IndexDescription?
    private var warnings: [ModelWarning] = []
    private var failure: Error?
    private var sawModel = false
    private var skipDepth = 0
    private weak var parser: XMLParser?

    private static let ignored: Set<String> = [
        "elements", "element", "fetchRequest", "configuration", "memberEntity", "userInfo", "entry",
        "fetchedProperty", "compoundIndexes", "compoundIndex", "index",
    ]

    init(path: String) { self.path = path }

    /// Parses `data`; returns the definition and the warnings.
    func parse(_ data: Data) throws -> (ModelDefinition, [ModelWarning]) {
        let parser = XMLParser(data: data)
        parser.delegate = self
        self.parser = parser
        let ok = parser.parse()
        if let failure { throw failure }
        if !ok {
            let error = parser.parserError.map { "\($0.localizedDescription)" } ?? "malformed XML"
            throw ModelError.malformedFile(path: path, line: parser.lineNumber, column: parser.columnNumber, reason: "malformed XML: \(error)")
        }
        guard sawModel else { throw ModelError.malformedFile(path: path, line: 1, column: 1, reason: "no <model> element: not a Core Data model") }
        return (ModelDefinition(entities: entities), warnings)
    }

    private var line: Int { parser?.lineNumber ?? 0 }

    private func fail(_ error: Error) {
        guard failure == nil else { return }
        failure = error
        parser?.abortParsing()
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes a: [String: String] = [:]) {
        guard failure == nil else { return }
        if skipDepth > 0 { skipDepth += 1; return }
        switch name {
        case "model":
            sawModel = true
        case "entity":
            guard let entityName = a["name"], !entityName.isEmpty else {
                return fail(ModelError.malformedFile(path: path, line: line, column: 0, reason: "<entity> without a name"))
            }
            current = EntityDefinition(name: entityName, parent: a["parentEntity"], isAbstract: a["isAbstract"] == "YES",
                                       className: a["representedClassName"])
        case "attribute":
            guard current != nil else { return fail(misplaced(name)) }
            do { try addAttribute(a) } catch { fail(error) }
        case "relationship":
            guard current != nil else { return fail(misplaced(name)) }
            addRelationship(a)
        case "uniquenessConstraints":
            guard current != nil else { return fail(misplaced(name)) }
        case "uniquenessConstraint":
            currentUnique = []
        case "constraint":
            if let v = a["value"] { currentUnique?.append(v) }
        case "fetchIndex":
            guard current != nil else { return fail(misplaced(name)) }
            currentIndex = IndexDescription(name: a["name"] ?? "index\(current!.indexes.count + 1)", attributes: [])
        case "fetchIndexElement":
            if let p = a["property"] {
                currentIndex?.attributes.append(p)
            } else if a["expression"] != nil {
                warnings.append(ModelWarning(name: "xcode.ignored-element", message: "\(path):\(line): expression index element ignored"))
            }
        default:
            let why = Self.ignored.contains(name) ? "ignored" : "unknown, ignored"
            warnings.append(ModelWarning(name: "xcode.ignored-element", message: "\(path):\(line): <\(name)> \(why)"))
            skipDepth = 1
        }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        guard failure == nil else { return }
        if skipDepth > 0 { skipDepth -= 1; return }
        switch name {
        case "entity":
            if let e = current { entities.append(e) }
            current = nil
        case "uniquenessConstraint":
            if let u = currentUnique, !u.isEmpty { current?.uniquenessConstraints.append(u) }
            currentUnique = nil
        case "fetchIndex":
            if let i = currentIndex, !i.attributes.isEmpty { current?.indexes.append(i) }
            currentIndex = nil
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        guard failure == nil else { return }
        failure = ModelError.malformedFile(path: path, line: parser.lineNumber, column: parser.columnNumber,
                                           reason: "malformed XML: \(parseError.localizedDescription)")
    }

    private func misplaced(_ element: String) -> ModelError {
        .malformedFile(path: path, line: line, column: 0, reason: "<\(element)> outside an <entity>")
    }

    private func addAttribute(_ a: [String: String]) throws {
        let entity = current!.name
        guard let name = a["name"], !name.isEmpty else {
            throw ModelError.malformedFile(path: path, line: line, column: 0, reason: "<attribute> without a name in entity '\(entity)'")
        }
        let typeName = a["attributeType"] ?? "Undefined"
        guard let type = AttributeType(rawValue: typeName) else {
            throw ModelError.unsupported(path: path, line: line, feature: "attribute type '\(typeName)' of '\(entity).\(name)'")
        }
        if a["derived"] == "YES" {
            warnings.append(ModelWarning(name: "xcode.derived-attribute", message: "\(path):\(line): derived attribute '\(entity).\(name)' is stored as a plain attribute"))
        }
        if type == .transformable, let transformer = a["valueTransformerName"], !transformer.isEmpty {
            warnings.append(ModelWarning(name: "xcode.value-transformer", message: "\(path):\(line): '\(entity).\(name)' uses \(transformer); Quarry stores it as JSON"))
        }
        var attribute = AttributeDescription(name: name, type: type, isOptional: a["optional"] == "YES", isTransient: a["transient"] == "YES",
                                             isIndexed: a["indexed"] == "YES")
        attribute.minValue = try number(a["minValueString"], "minValueString", entity, name)
        attribute.maxValue = try number(a["maxValueString"], "maxValueString", entity, name)
        attribute.regularExpression = a["regularExpressionString"]
        if let text = a["defaultValueString"] {
            attribute.defaultValue = try defaultValue(text, type: type, entity: entity, attribute: name)
        }
        current!.attributes.append(attribute)
    }

    private func number(_ text: String?, _ key: String, _ entity: String, _ attribute: String) throws -> Double? {
        guard let text else { return nil }
        guard let v = Double(text) else {
            throw ModelError.malformedFile(path: path, line: line, column: 0, reason: "\(key) '\(text)' of '\(entity).\(attribute)' is not a number")
        }
        return v
    }

    private func defaultValue(_ text: String, type: AttributeType, entity: String, attribute: String) throws -> Value {
        let value: Value?
        switch type {
        case .integer16, .integer32, .integer64: value = Int64(text).map(Value.integer)
        case .double, .float: value = Double(text).map(Value.double)
        case .decimal: value = Decimal(string: text).map(Value.decimal)
        case .boolean: value = text == "YES" ? .bool(true) : text == "NO" ? .bool(false) : nil
        case .string: value = .string(text)
        case .date: value = Double(text).map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        case .uuid: value = UUID(uuidString: text).map(Value.uuid)
        case .uri: value = URL(string: text).map(Value.uri)
        case .binary, .transformable: value = nil
        }
        guard let value else {
            throw ModelError.invalidDefault(entity: entity, attribute: attribute, value: "'\(text)' (\(path):\(line))")
        }
        return value
    }

    private func addRelationship(_ a: [String: String]) {
        let entity = current!.name
        let rule = DeleteRule(rawValue: a["deletionRule"] ?? "Nullify") ?? .nullify
        if let r = a["deletionRule"], DeleteRule(rawValue: r) == nil {
            warnings.append(ModelWarning(name: "xcode.unknown-delete-rule", message: "\(path):\(line): '\(entity).\(a["name"] ?? "?")' rule '\(r)' read as Nullify"))
        }
        let toMany = a["toMany"] == "YES"
        current!.relationships.append(RelationshipDescription(
            name: a["name"] ?? "", destination: a["destinationEntity"] ?? "", inverse: a["inverseName"],
            isToMany: toMany, isOrdered: a["ordered"] == "YES", isOptional: a["optional"] == "YES",
            deleteRule: rule,
            // Xcode writes maxCount="1" on every to-one; counts only matter for to-many.
            minCount: toMany ? Int(a["minCount"] ?? "") ?? 0 : 0, maxCount: toMany ? Int(a["maxCount"] ?? "") ?? 0 : 0))
    }
}
