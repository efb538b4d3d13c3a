import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads the `contents` XML of an Xcode `.xcdatamodel` into a ``ModelDefinition``.
///
/// One parser reads one document, on the calling thread. Entities, attributes (derived ones
/// with their expression), composite attributes and their `<composite>` types, relationships,
/// fetched properties, fetch request templates, configurations, constraints and indexes are
/// read; elements Quarry has no use for (diagram layout, user info) are skipped whole, each
/// with a named ``ModelWarning``; features that would change what the model means throw a
/// ``ModelError`` with the file and line.
final class XcodeContentsParser: NSObject, XMLParserDelegate {
    private let path: String
    private var entities: [EntityDefinition] = []
    private var warnings: [ModelWarning] = []
    private var failure: ModelError?
    private var xmlError: (line: Int, column: Int, code: Int)?

    /// Open elements Quarry reads, outermost first.
    private var open: [String] = []
    /// How deep inside a skipped element the parser is (0: not skipping).
    private var skippedDepth = 0
    private var entity: EntityDefinition?
    private var constraint: [String] = []
    private var index: (name: String, attributes: [String])?
    private var compoundIndex: [String] = []
    private var sawModel = false
    /// The fetched property being read (its `<fetchRequest>` child gives destination and predicate).
    private var fetchedProperty: FetchedPropertyDescription?
    /// The model-level composite type being read, and those read so far by name.
    private var compositeType: (name: String, elements: [AttributeDescription])?
    private var compositeTypes: [String: [AttributeDescription]] = [:]
    /// Composite attributes waiting for their type (declared anywhere in the document):
    /// entity index in `entities` (or the open entity), attribute, line.
    private var compositeUses: [(entity: String, attribute: CompositeAttributeDescription, line: Int)] = []
    private var templates: [FetchRequestTemplate] = []
    private var configurations: [ModelConfiguration] = []
    /// The line of each entity and property element.
    private let positions = ModelSourcePositions()

    private init(path: String) { self.path = path }

    /// Parses `data`, naming `path` in warnings and errors.
    /// - Throws: ``ModelError``.
    static func parse(_ data: Data, path: String) throws -> (definition: ModelDefinition, warnings: [ModelWarning]) {
        let parsed = try parseLocated(data, path: path)
        return (parsed.definition, parsed.warnings)
    }

    /// Parses `data` as ``parse(_:path:)`` does, also returning the line of each entity and
    /// property element, so faults the model resolver finds later can name it.
    /// - Throws: ``ModelError``.
    static func parseLocated(_ data: Data, path: String) throws -> (definition: ModelDefinition, warnings: [ModelWarning], lines: ModelSourcePositions) {
        try XcodeDocumentPrecheck.check(data, path: path)
        let delegate = XcodeContentsParser(path: path)
        let parser = XMLParser(data: data)
        parser.delegate = delegate
        parser.shouldResolveExternalEntities = false
        let finished = parser.parse()
        if let failure = delegate.failure { throw failure }
        guard finished else {
            let parserCode = parser.parserError.map { ($0 as NSError).code } ?? 0
            let at = delegate.xmlError ?? (parser.lineNumber, parser.columnNumber, parserCode)
            throw ModelError.malformedFile(
                path: path, line: at.line, column: at.column, reason: Self.reason(forXMLErrorCode: at.code))
        }
        guard delegate.sawModel else {
            throw ModelError.malformedFile(path: path, line: 0, column: 0, reason: "the file is empty")
        }
        // Some Foundation versions accept a document cut short; an element still open means so.
        if let unclosed = delegate.open.last {
            throw ModelError.malformedFile(
                path: path, line: parser.lineNumber, column: parser.columnNumber,
                reason: "the file ends inside <\(unclosed)>")
        }
        let entities = try delegate.entitiesWithComposites()
        let definition = ModelDefinition(entities: entities, fetchRequestTemplates: delegate.templates,
                                         configurations: delegate.configurations)
        return (definition, delegate.warnings, delegate.positions)
    }

    // MARK: XMLParserDelegate

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
        qualifiedName: String?, attributes xml: [String: String] = [:]
    ) {
        if skippedDepth > 0 { skippedDepth += 1; return }
        let line = parser.lineNumber
        do {
            switch try start(name, xml, line: line) {
            case .read:
                open.append(name)
            case .skip:
                skippedDepth = 1
                warnings.append(.xcode(
                    ModelWarning.xcodeIgnoredElement, path: path, line: line,
                    "ignored <\(name)>\(Self.why(ignoring: name))"))
            case .skipReported:
                skippedDepth = 1
            }
        } catch let error as ModelError {
            fail(error.inFile(path, line: line, column: 0), parser)
        } catch {
            fail(.malformedFile(path: path, line: line, column: 0, reason: "\(error)"), parser)
        }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if skippedDepth > 0 { skippedDepth -= 1; return }
        guard let closing = open.popLast() else { return }
        end(closing)
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        if xmlError == nil {
            xmlError = (parser.lineNumber, parser.columnNumber, (parseError as NSError).code)
        }
    }

    // MARK: Elements

    /// What the parser does with an element and its content.
    private enum Disposition {
        /// Read it.
        case read
        /// Skip it, with an ``ModelWarning/xcodeIgnoredElement`` warning.
        case skip
        /// Skip it; a more specific warning was already given.
        case skipReported
    }

    /// Handles an opening tag.
    private func start(_ name: String, _ xml: [String: String], line: Int) throws -> Disposition {
        let mapping = XcodePropertyMapping(path: path, line: line, entity: entity?.name ?? "")
        switch (open.last, name) {
        case (nil, "model"):
            sawModel = true
        case (nil, _):
            throw ModelError.malformedFile(
                path: path, line: line, column: 0,
                reason: "root element is <\(name)>, not <model>: not a Core Data model file")
        case ("model", "entity"):
            let name = try mapping.required("name", of: "entity", in: xml)
            positions.record(line, entity: name)
            entity = EntityDefinition(
                name: name, parent: xml["parentEntity"], isAbstract: XcodePropertyMapping.flag(xml["isAbstract"]),
                className: xml["representedClassName"],
                renamingIdentifier: XcodePropertyMapping.renamingIdentifier(xml))
        case ("entity", "attribute") where xml["attributeType"] == "Composite":
            let name = try mapping.required("name", of: "attribute", in: xml)
            let typeName = try mapping.required("composite", of: "composite attribute '\(name)'", in: xml)
            compositeUses.append((entity!.name, CompositeAttributeDescription(
                name: name, typeName: typeName, isOptional: XcodePropertyMapping.flag(xml["optional"]), elements: []), line))
            positions.record(line, entity: entity!.name, property: name)
        case ("entity", "attribute"):
            var attribute = try mapping.attribute(xml, warnings: &warnings)
            if XcodePropertyMapping.flag(xml["derived"]) {
                attribute.derivationExpression = try mapping.required("derivationExpression", of: "derived attribute '\(attribute.name)'", in: xml)
            }
            entity!.attributes.append(attribute)
            positions.record(line, entity: entity!.name, property: attribute.name)
        case ("entity", "fetchedProperty"):
            let name = try mapping.required("name", of: "fetchedProperty", in: xml)
            fetchedProperty = FetchedPropertyDescription(name: name, destination: "", predicate: "",
                                                         isOptional: XcodePropertyMapping.flag(xml["optional"]))
            positions.record(line, entity: entity!.name, property: name)
        case ("fetchedProperty", "fetchRequest"):
            fetchedProperty!.destination = xml["entity"] ?? ""
            fetchedProperty!.predicate = xml["predicateString"] ?? ""
        case ("model", "fetchRequest"):
            let name = try mapping.required("name", of: "fetchRequest", in: xml)
            templates.append(FetchRequestTemplate(
                name: name, entity: try mapping.required("entity", of: "fetch request '\(name)'", in: xml),
                predicate: xml["predicateString"] ?? ""))
        case ("model", "configuration"):
            configurations.append(ModelConfiguration(name: try mapping.required("name", of: "configuration", in: xml), entities: []))
        case ("configuration", "memberEntity"):
            configurations[configurations.count - 1].entities.append(try mapping.required("name", of: "memberEntity", in: xml))
        case ("model", "composite"):
            compositeType = (try mapping.required("name", of: "composite", in: xml), [])
        case ("composite", "attribute"):
            let element = XcodePropertyMapping(path: path, line: line, entity: compositeType!.name)
            compositeType!.elements.append(try element.attribute(xml, warnings: &warnings))
        case ("entity", "relationship"):
            entity!.relationships.append(try mapping.relationship(xml))
            positions.record(line, entity: entity!.name, property: entity!.relationships.last!.name)
        case ("entity", "uniquenessConstraints"), ("entity", "compoundIndexes"):
            break
        case ("uniquenessConstraints", "uniquenessConstraint"):
            constraint = []
        case ("uniquenessConstraint", "constraint"), ("compoundIndex", "index"):
            let value = try mapping.required("value", of: name, in: xml)
            if name == "constraint" { constraint.append(value) } else { compoundIndex.append(value) }
        case ("compoundIndexes", "compoundIndex"):
            compoundIndex = []
        case ("entity", "fetchIndex"):
            index = (try mapping.required("name", of: "fetchIndex", in: xml), [])
        case ("fetchIndex", "fetchIndexElement"):
            fetchIndexElement(xml, line: line)
        default:
            return .skip
        }
        return .read
    }

    private func fetchIndexElement(_ xml: [String: String], line: Int) {
        let indexName = "'\(entity!.name).\(index!.name)'"
        guard let property = xml["property"] else {
            warnings.append(.xcode(
                ModelWarning.xcodeFetchIndex, path: path, line: line,
                "skipped expression element of fetch index \(indexName)"))
            return
        }
        // Core Data indexes a to-one's foreign key; Quarry's indexes name attributes only, so the
        // element is left out rather than refusing the whole model (a relationship named here
        // is one declared above the index, as Xcode writes them).
        if entity!.relationships.contains(where: { $0.name == property }) {
            warnings.append(.xcode(
                ModelWarning.xcodeFetchIndex, path: path, line: line,
                "fetch index \(indexName) element '\(property)' is a relationship; Quarry indexes attributes only, so it is left out"))
            return
        }
        index!.attributes.append(property)
        if let type = xml["type"], type != "Binary" {
            warnings.append(.xcode(
                ModelWarning.xcodeFetchIndex, path: path, line: line,
                "fetch index \(indexName) of type '\(type)' is made a plain index"))
        }
        if let order = xml["order"], order != "ascending" {
            warnings.append(.xcode(
                ModelWarning.xcodeFetchIndex, path: path, line: line,
                "fetch index \(indexName) element '\(property)' is \(order); Quarry indexes ascending"))
        }
    }

    private func end(_ name: String) {
        switch name {
        case "fetchedProperty":
            if let fetchedProperty { entity!.fetchedProperties.append(fetchedProperty) }
            fetchedProperty = nil
        case "composite":
            if let compositeType { compositeTypes[compositeType.name] = compositeType.elements }
            compositeType = nil
        case "entity":
            entities.append(entity!)
            entity = nil
        case "uniquenessConstraint" where !constraint.isEmpty:
            entity!.uniquenessConstraints.append(constraint)
        case "compoundIndex" where !compoundIndex.isEmpty:
            entity!.indexes.append(IndexDescription(
                name: "compound_" + compoundIndex.joined(separator: "_"), attributes: compoundIndex))
        case "fetchIndex":
            if let index, !index.attributes.isEmpty {
                entity!.indexes.append(IndexDescription(name: index.name, attributes: index.attributes))
            }
            index = nil
        default:
            break
        }
    }

    /// The entities read, each composite attribute given the elements of the `<composite>`
    /// type it names (declared before or after it).
    /// - Throws: ``ModelError/malformedFile(path:line:column:reason:)`` for a composite
    ///   attribute naming a type the document does not declare.
    private func entitiesWithComposites() throws -> [EntityDefinition] {
        var result = entities
        for use in compositeUses {
            guard let typeName = use.attribute.typeName, let elements = compositeTypes[typeName] else {
                throw ModelError.malformedFile(
                    path: path, line: use.line, column: 0,
                    reason: "composite attribute '\(use.entity).\(use.attribute.name)' names composite '\(use.attribute.typeName ?? "")', which the model does not declare")
            }
            guard let index = result.firstIndex(where: { $0.name == use.entity }) else { continue }
            var attribute = use.attribute
            attribute.elements = elements
            result[index].compositeAttributes.append(attribute)
        }
        return result
    }

    private func fail(_ error: ModelError, _ parser: XMLParser) {
        if failure == nil { failure = error }
        parser.abortParsing()
    }

    // MARK: Messages

    private static func why(ignoring element: String) -> String {
        switch element {
        case "elements", "element": return " (diagram layout)"
        case "userInfo", "entry": return " (user info)"
        default: return ": not a Core Data model element Quarry knows"
        }
    }

    /// A readable reason for a parser error. The codes are libxml2's, which Foundation's
    /// `XMLParser` reports unchanged on every platform.
    private static func reason(forXMLErrorCode code: Int) -> String {
        switch code {
        case 4: return "the file is empty"
        case 5: return "extra content after the closing </model>"
        case 9: return "invalid character"
        case 23, 26: return "malformed XML entity reference"
        case 38...42: return "malformed XML attribute"
        case 65, 68, 73, 74, 75: return "malformed XML tag"
        case 76: return "closing tag does not match the open element"
        case 77: return "the file ends inside an element"
        default: return "malformed XML (libxml2 error \(code))"
        }
    }
}
