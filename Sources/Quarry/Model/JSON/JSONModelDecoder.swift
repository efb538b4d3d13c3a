import Foundation

/// Turns a parsed JSON model file into a ``ModelDefinition``, checking every key and type and
/// reporting faults as ``ModelError/malformedFile(path:line:column:reason:)`` with the position
/// of the offending key or value and a reason naming the entity and key.
struct JSONModelDecoder {
    let path: String
    let document: JSONDocument
    /// Where each entity and property was declared (byte offsets), filled by ``decode()``.
    let positions = ModelSourcePositions()

    /// A decoder of the JSON model text `jsonText`, parsed.
    /// - Throws: ``ModelError/malformedFile(path:line:column:reason:)`` for a syntax error.
    init(jsonText: String, path: String) throws {
        do {
            document = try JSONDocument(text: jsonText)
        } catch let error as JSONDocument.SyntaxError {
            let (line, column) = JSONDocument.position(of: error.offset, in: jsonText)
            throw ModelError.malformedFile(path: path, line: line, column: column, reason: error.reason)
        }
        self.path = path
    }

    static let modelKeys: Set<String> = ["entities", "fetchRequests", "configurations"]
    static let entityKeys: Set<String> = ["name", "parent", "abstract", "className", "attributes", "relationships", "indexes", "unique", "renamingIdentifier", "composites", "fetchedProperties"]
    static let attributeKeys: Set<String> = ["name", "type", "optional", "transient", "default", "min", "max", "regex", "indexed", "renamingIdentifier", "valueTransformer", "preservesValueInHistoryOnDeletion", "derivation"]
    static let compositeKeys: Set<String> = ["name", "type", "optional", "elements"]
    static let fetchedPropertyKeys: Set<String> = ["name", "destination", "predicate", "optional"]
    static let fetchRequestKeys: Set<String> = ["name", "entity", "predicate"]
    static let configurationKeys: Set<String> = ["name", "entities"]
    static let relationshipKeys: Set<String> = ["name", "destination", "inverse", "toMany", "ordered", "optional", "deleteRule", "minCount", "maxCount", "renamingIdentifier"]
    static let indexKeys: Set<String> = ["name", "attributes"]

    func decode() throws -> ModelDefinition {
        let top = try object(document.root, context: "model", allowed: Self.modelKeys)
        let entities = try top.array("entities", required: true).enumerated().map { i, node in
            try decodeEntity(node, position: i)
        }
        let templates = try top.array("fetchRequests").enumerated().map { i, node in
            let fields = try object(node, context: "fetch request #\(i + 1)", allowed: Self.fetchRequestKeys)
            return FetchRequestTemplate(name: try fields.string("name", required: true)!,
                                        entity: try fields.string("entity", required: true)!,
                                        predicate: try fields.string("predicate") ?? "")
        }
        let configurations = try top.array("configurations").enumerated().map { i, node in
            let fields = try object(node, context: "configuration #\(i + 1)", allowed: Self.configurationKeys)
            let name = try fields.string("name", required: true)!
            let members = try fields.array("entities", required: true).map {
                try stringValue($0, context: "configuration '\(name)'", key: "entities")
            }
            return ModelConfiguration(name: name, entities: members)
        }
        return ModelDefinition(entities: entities, fetchRequestTemplates: templates, configurations: configurations)
    }

    // MARK: - Entities and properties

    private func decodeEntity(_ node: JSONDocument.Node, position: Int) throws -> EntityDefinition {
        let nameless = "entity #\(position + 1)"
        let probe = try object(node, context: nameless, allowed: nil)
        let name = try probe.string("name", required: true)!
        let fields = try object(node, context: "entity '\(name)'", allowed: Self.entityKeys)
        positions.record(fields.valueOffset("name"), entity: name)
        var entity = EntityDefinition(name: name)
        entity.parent = try fields.string("parent")
        entity.isAbstract = try fields.bool("abstract") ?? false
        entity.className = try fields.string("className")
        entity.renamingIdentifier = try fields.string("renamingIdentifier")
        entity.attributes = try fields.array("attributes").enumerated().map { i, n in
            try decodeAttribute(n, entity: name, position: i)
        }
        entity.relationships = try fields.array("relationships").enumerated().map { i, n in
            try decodeRelationship(n, entity: name, position: i)
        }
        entity.indexes = try fields.array("indexes").map { n in
            let index = try object(n, context: "entity '\(name)': index", allowed: Self.indexKeys)
            let indexName = try index.string("name", required: true)!
            let attributes = try index.array("attributes", required: true).map { try stringValue($0, context: "entity '\(name)': index '\(indexName)'", key: "attributes") }
            return IndexDescription(name: indexName, attributes: attributes)
        }
        entity.compositeAttributes = try fields.array("composites").enumerated().map { i, n in
            let probe = try object(n, context: "entity '\(name)': composite #\(i + 1)", allowed: nil)
            let compositeName = try probe.string("name", required: true)!
            let context = "entity '\(name)': composite '\(compositeName)'"
            let composite = try object(n, context: context, allowed: Self.compositeKeys)
            positions.record(composite.valueOffset("name"), entity: name, property: compositeName)
            let elements = try composite.array("elements", required: true).enumerated().map { j, element in
                try decodeAttribute(element, entity: "\(name)': composite '\(compositeName)", position: j)
            }
            return CompositeAttributeDescription(name: compositeName, typeName: try composite.string("type"),
                                                 isOptional: try composite.bool("optional") ?? true, elements: elements)
        }
        entity.fetchedProperties = try fields.array("fetchedProperties").enumerated().map { i, n in
            let probe = try object(n, context: "entity '\(name)': fetched property #\(i + 1)", allowed: nil)
            let propertyName = try probe.string("name", required: true)!
            let fetched = try object(n, context: "entity '\(name)': fetched property '\(propertyName)'", allowed: Self.fetchedPropertyKeys)
            positions.record(fetched.valueOffset("name"), entity: name, property: propertyName)
            if let node = fetched.node("predicate") { positions.record(node.offset, entity: name, property: propertyName, key: "predicate") }
            return FetchedPropertyDescription(name: propertyName, destination: try fetched.string("destination", required: true)!,
                                              predicate: try fetched.string("predicate") ?? "",
                                              isOptional: try fetched.bool("optional") ?? true)
        }
        entity.uniquenessConstraints = try fields.array("unique").map { n in
            guard case .array(let names) = n.kind else {
                throw fault(n.offset, "entity '\(name)': key 'unique' must hold arrays of attribute names, found \(n.typeName)")
            }
            return try names.map { try stringValue($0, context: "entity '\(name)'", key: "unique") }
        }
        return entity
    }

    private func decodeAttribute(_ node: JSONDocument.Node, entity: String, position: Int) throws -> AttributeDescription {
        let probe = try object(node, context: "entity '\(entity)': attribute #\(position + 1)", allowed: nil)
        let name = try probe.string("name", required: true)!
        let context = "entity '\(entity)': attribute '\(name)'"
        let fields = try object(node, context: context, allowed: Self.attributeKeys)
        positions.record(fields.valueOffset("name"), entity: entity, property: name)
        // Only keys present: a fault about `regex` or `max` is only found where one is given.
        for key in ["regex", "max", "derivation"] {
            if let node = fields.node(key) { positions.record(node.offset, entity: entity, property: name, key: key) }
        }
        let typeName = try fields.string("type", required: true)!
        guard let type = AttributeType(rawValue: typeName) else {
            let known = AttributeType.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw fault(fields.valueOffset("type"), "\(context): key 'type': unknown attribute type '\(typeName)' (one of \(known))")
        }
        var attribute = AttributeDescription(name: name, type: type)
        attribute.isOptional = try fields.bool("optional") ?? true
        attribute.isTransient = try fields.bool("transient") ?? false
        if let defaultNode = fields.node("default") {
            attribute.defaultValue = try JSONModelValues.decodeDefault(defaultNode, type: type) { reason in
                fault(defaultNode.offset, "\(context): key 'default': \(reason)")
            }
        }
        attribute.minValue = try fields.double("min")
        attribute.maxValue = try fields.double("max")
        attribute.regularExpression = try fields.string("regex")
        attribute.isIndexed = try fields.bool("indexed") ?? false
        attribute.renamingIdentifier = try fields.string("renamingIdentifier")
        attribute.valueTransformerName = try fields.string("valueTransformer")
        attribute.preservesValueInHistoryOnDeletion = try fields.bool("preservesValueInHistoryOnDeletion") ?? false
        attribute.derivationExpression = try fields.string("derivation")
        return attribute
    }

    private func decodeRelationship(_ node: JSONDocument.Node, entity: String, position: Int) throws -> RelationshipDescription {
        let probe = try object(node, context: "entity '\(entity)': relationship #\(position + 1)", allowed: nil)
        let name = try probe.string("name", required: true)!
        let context = "entity '\(entity)': relationship '\(name)'"
        let fields = try object(node, context: context, allowed: Self.relationshipKeys)
        positions.record(fields.valueOffset("name"), entity: entity, property: name)
        // A missing destination is reported by the model resolver (ModelError.missingDestination).
        var relationship = RelationshipDescription(name: name, destination: try fields.string("destination") ?? "")
        relationship.inverse = try fields.string("inverse")
        relationship.isToMany = try fields.bool("toMany") ?? false
        relationship.isOrdered = try fields.bool("ordered") ?? false
        relationship.isOptional = try fields.bool("optional") ?? true
        if let ruleName = try fields.string("deleteRule") {
            guard let rule = DeleteRule(rawValue: ruleName) else {
                let known = DeleteRule.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                throw fault(fields.valueOffset("deleteRule"), "\(context): key 'deleteRule': unknown delete rule '\(ruleName)' (one of \(known))")
            }
            relationship.deleteRule = rule
        }
        relationship.minCount = try fields.int("minCount") ?? 0
        relationship.maxCount = try fields.int("maxCount") ?? 0
        relationship.renamingIdentifier = try fields.string("renamingIdentifier")
        return relationship
    }

    // MARK: - Faults found after decoding

    /// Refuses an attribute whose validation rules cannot be right (a pattern that does not
    /// compile, a minimum above its maximum), at the key's line and column.
    /// - Throws: ``ModelError/malformedFile(path:line:column:reason:)``.
    func checkValidationRules(of definition: ModelDefinition) throws {
        for entity in definition.entities {
            for attribute in entity.attributes {
                guard let (key, reason) = attribute.ruleDefinitionProblem else { continue }
                let offset = positions.position(entity: entity.name, property: attribute.name, key: key) ?? 0
                throw fault(offset, "entity '\(entity.name)': attribute '\(attribute.name)': key '\(key)': \(reason)")
            }
        }
    }

    /// `error` (the model resolver's) as a fault of this file, at the declaration it is about.
    func located(_ error: ModelError) -> ModelError {
        guard let subject = error.subject else { return error }
        // An expression's or predicate's fault is at its value, not at the property's name.
        let key: String?
        switch error {
        case .invalidDerivation: key = "derivation"
        case .invalidFetchedProperty: key = "predicate"
        default: key = nil
        }
        guard let offset = positions.position(entity: subject.entity, property: subject.property, key: key) else {
            return error.inFile(path, line: 0, column: 0)
        }
        let (line, column) = document.position(of: offset)
        return error.inFile(path, line: line, column: column)
    }

    /// `FILE:LINE:COLUMN` of the declaration of `property` of `entity` (`FILE` when unknown),
    /// for warnings about it.
    func location(entity: String, property: String?) -> String {
        guard let offset = positions.position(entity: entity, property: property) else { return path }
        let (line, column) = document.position(of: offset)
        return "\(path):\(line):\(column)"
    }

    // MARK: - Field access

    func fault(_ offset: Int, _ reason: String) -> ModelError {
        let (line, column) = document.position(of: offset)
        return ModelError.malformedFile(path: path, line: line, column: column, reason: reason)
    }

    private func stringValue(_ node: JSONDocument.Node, context: String, key: String) throws -> String {
        guard case .string(let s) = node.kind else {
            throw fault(node.offset, "\(context): key '\(key)' must hold strings, found \(node.typeName)")
        }
        return s
    }

    private func object(_ node: JSONDocument.Node, context: String, allowed: Set<String>?) throws -> Fields {
        guard case .object(let members) = node.kind else {
            throw fault(node.offset, "\(context): expected an object, found \(node.typeName)")
        }
        if let allowed {
            for m in members where !allowed.contains(m.key) {
                throw fault(m.keyOffset, "\(context): unknown key '\(m.key)' (allowed: \(allowed.sorted().joined(separator: ", ")))")
            }
        }
        return Fields(decoder: self, members: members, context: context, offset: node.offset)
    }

    /// The members of one JSON object, read by key with type checks.
    struct Fields {
        let decoder: JSONModelDecoder
        let members: [(key: String, keyOffset: Int, value: JSONDocument.Node)]
        let context: String
        let offset: Int

        func node(_ key: String) -> JSONDocument.Node? { members.first { $0.key == key }?.value }
        func valueOffset(_ key: String) -> Int { node(key)?.offset ?? offset }

        private func value(_ key: String, required: Bool) throws -> JSONDocument.Node? {
            guard let n = node(key) else {
                if required { throw decoder.fault(offset, "\(context): missing key '\(key)'") }
                return nil
            }
            if case .null = n.kind, !required { return nil }
            return n
        }

        private func mismatch(_ key: String, _ n: JSONDocument.Node, _ expected: String) -> ModelError {
            decoder.fault(n.offset, "\(context): key '\(key)' must be \(expected), found \(n.typeName)")
        }

        func string(_ key: String, required: Bool = false) throws -> String? {
            guard let n = try value(key, required: required) else { return nil }
            guard case .string(let s) = n.kind else { throw mismatch(key, n, "a string") }
            return s
        }

        func bool(_ key: String) throws -> Bool? {
            guard let n = try value(key, required: false) else { return nil }
            guard case .bool(let b) = n.kind else { throw mismatch(key, n, "true or false") }
            return b
        }

        func double(_ key: String) throws -> Double? {
            guard let n = try value(key, required: false) else { return nil }
            guard case .number(let text) = n.kind, let d = Double(text) else { throw mismatch(key, n, "a number") }
            return d
        }

        func int(_ key: String) throws -> Int? {
            guard let n = try value(key, required: false) else { return nil }
            guard case .number(let text) = n.kind, let i = Int(text) else { throw mismatch(key, n, "an integer") }
            return i
        }

        func array(_ key: String, required: Bool = false) throws -> [JSONDocument.Node] {
            guard let n = try value(key, required: required) else { return [] }
            guard case .array(let a) = n.kind else { throw mismatch(key, n, "an array") }
            return a
        }
    }
}
