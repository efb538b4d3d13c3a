import Foundation

/// Rebuilds a ``ModelDefinition`` from a keyed archive of an `NSManagedObjectModel`, using the
/// keys Core Data writes (`NSEntities`, `NSEntityName`, `NSProperties`, `NSAttributeType`…,
/// as found in real stores' `Z_MODELCACHE`).
struct CoreDataModelDecoder {
    let archive: KeyedArchive
    private(set) var warnings: [ModelWarning] = []

    init(archive: KeyedArchive) {
        self.archive = archive
    }

    /// The definition and the warnings for everything skipped.
    mutating func decode() throws(CoreDataModelCacheError) -> (ModelDefinition, [ModelWarning]) {
        let root = try archive.object(archive.topUID("root"), at: "$top.root")
        guard root.isKind(of: "NSManagedObjectModel") else {
            throw .unexpectedClass(expected: "NSManagedObjectModel", found: root.className, at: root.path)
        }
        var entities: [EntityDefinition] = []
        var seen = Set<String>()
        for (i, pair) in try root.dictionary("NSEntities").enumerated() {
            let path = "\(root.path).NSEntities[\(i)]"
            let object = try entityObject(pair.value, at: path)
            let entity = try self.entity(object)
            guard seen.insert(entity.name).inserted else {
                warn("coredata.duplicate-entity", "\(path): a second entity named \(entity.name); skipped")
                continue
            }
            entities.append(entity)
        }
        return (ModelDefinition(entities: Self.withoutInheritedProperties(entities)), warnings)
    }

    /// `entities` with each sub-entity's inherited properties left to its parent.
    ///
    /// Core Data archives an entity's `NSProperties` with everything it inherits, but a
    /// ``ModelDefinition`` declares a property once, on the entity that owns it (a sub-entity
    /// cannot redeclare one, in Core Data either); kept, every model with sub-entities would be
    /// refused as declaring its parent's properties twice.
    static func withoutInheritedProperties(_ entities: [EntityDefinition]) -> [EntityDefinition] {
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        return entities.map { entity in
            var inherited = Set<String>()
            var visited: Set<String> = [entity.name]
            var parent = entity.parent
            // `visited` stops at a cycle, which the resolver then reports by name.
            while let name = parent, visited.insert(name).inserted, let ancestor = byName[name] {
                inherited.formUnion(ancestor.attributes.map(\.name))
                inherited.formUnion(ancestor.relationships.map(\.name))
                parent = ancestor.parent
            }
            guard !inherited.isEmpty else { return entity }
            var own = entity
            own.attributes.removeAll { inherited.contains($0.name) }
            own.relationships.removeAll { inherited.contains($0.name) }
            return own
        }
    }

    private func entityObject(_ value: KeyedArchiveValue, at path: String) throws(CoreDataModelCacheError) -> KeyedArchiveObject {
        guard case .object(let uid, _) = value else {
            throw .wrongType(expected: "an archived NSEntityDescription", found: value.kind, at: path)
        }
        let object = try archive.object(uid, at: path)
        guard object.isKind(of: "NSEntityDescription") else {
            throw .unexpectedClass(expected: "NSEntityDescription", found: object.className, at: path)
        }
        return object
    }

    private mutating func entity(_ object: KeyedArchiveObject) throws(CoreDataModelCacheError) -> EntityDefinition {
        let name = try object.requireString("NSEntityName")
        var entity = EntityDefinition(name: name)
        if let parent = try object.reference("NSSuperentity") {
            guard parent.isKind(of: "NSEntityDescription") else {
                throw .unexpectedClass(expected: "NSEntityDescription", found: parent.className, at: parent.path)
            }
            entity.parent = try parent.requireString("NSEntityName")
        }
        entity.isAbstract = try object.bool("NSIsAbstract") ?? false
        entity.className = try object.string("NSClassNameForEntity")
        var seen = Set<String>()
        for pair in try object.dictionary("NSProperties") {
            guard case .object(let uid, _) = pair.value else {
                throw .wrongType(expected: "an archived property description", found: pair.value.kind, at: "\(object.path).NSProperties")
            }
            let property = try archive.object(uid, at: "\(object.path).NSProperties")
            let propertyName = try property.requireString("NSPropertyName")
            let path = "entity \(name), property \(propertyName)"
            guard seen.insert(propertyName).inserted else {
                warn("coredata.duplicate-property", "\(path): a second property of that name; skipped")
                continue
            }
            if property.isKind(of: "NSCompositeAttributeDescription") {
                warn("coredata.composite-attribute", "\(path): a composite attribute; skipped (its elements are not read from a compiled model; load the .xcdatamodeld)")
            } else if property.isKind(of: "NSAttributeDescription") {
                if var attribute = try attribute(property, name: propertyName, path: path) {
                    if property.isKind(of: "NSDerivedAttributeDescription") {
                        attribute.derivationExpression = try derivationKeyPath(of: property)
                        if attribute.derivationExpression == nil {
                            warn("coredata.derived-attribute", "\(path): a derived attribute whose archived expression is not a key path Quarry reads; kept as a stored attribute saves do not recompute")
                        }
                    }
                    entity.attributes.append(attribute)
                }
            } else if property.isKind(of: "NSRelationshipDescription") {
                if let relationship = try relationship(property, name: propertyName, path: path) { entity.relationships.append(relationship) }
            } else if property.isKind(of: "NSFetchedPropertyDescription") {
                warn("coredata.fetched-property", "\(path): a fetched property; skipped (its archived fetch request is not read from a compiled model; load the .xcdatamodeld)")
            } else {
                warn("coredata.unknown-property", "\(path): an archived \(property.className); skipped")
            }
        }
        try fetchIndexes(of: object, into: &entity)
        return entity
    }

    /// The entity's fetch indexes (`NSFetchIndexDescriptions`), as the Xcode loader reads the
    /// `<fetchIndex>` elements they were compiled from: attribute elements only (a
    /// relationship's is left out with a warning), empty indexes dropped. Xcode's compiler
    /// makes a one-element index named after each `indexed="YES"` attribute (kept as that
    /// flag), and sets the flag on an attribute a one-element `<fetchIndex>` covers (cleared,
    /// as the source has only the index).
    private mutating func fetchIndexes(of object: KeyedArchiveObject, into entity: inout EntityDefinition) throws(CoreDataModelCacheError) {
        let path = "\(object.path).NSFetchIndexDescriptions"
        for value in try object.list("NSFetchIndexDescriptions") {
            guard case .object(let uid, _) = value else {
                throw .wrongType(expected: "an archived NSFetchIndexDescription", found: value.kind, at: path)
            }
            let index = try archive.object(uid, at: path)
            let name = try index.requireString("NSIndexName")
            var attributes: [String] = []
            for element in try index.list("NSIndexElements") {
                guard case .object(let elementUID, _) = element else {
                    throw .wrongType(expected: "an archived NSFetchIndexElementDescription", found: element.kind, at: "\(path).\(name)")
                }
                guard let property = try archive.object(elementUID, at: "\(path).\(name)").string("NSPropertyName") else {
                    warn("coredata.fetch-index", "entity \(entity.name), fetch index \(name): an expression element; skipped")
                    continue
                }
                guard entity.attributes.contains(where: { $0.name == property }) else {
                    warn("coredata.fetch-index", "entity \(entity.name), fetch index \(name): element '\(property)' is not an attribute; Quarry indexes attributes only, so it is left out")
                    continue
                }
                attributes.append(property)
            }
            guard !attributes.isEmpty else { continue }
            if attributes.count == 1, let a = entity.attributes.firstIndex(where: { $0.name == attributes[0] }),
               entity.attributes[a].isIndexed {
                // The compiler's index for an `indexed="YES"` attribute is named after it: the
                // source has the flag, not an index.
                if name == attributes[0] { continue }
                entity.attributes[a].isIndexed = false
            }
            entity.indexes.append(IndexDescription(name: name, attributes: attributes))
        }
    }

    private mutating func attribute(_ object: KeyedArchiveObject, name: String, path: String) throws(CoreDataModelCacheError) -> AttributeDescription? {
        let code = try object.integer("NSAttributeType") ?? 0
        guard let type = Self.attributeTypes[code] else {
            warn("coredata.unknown-attribute-type", "\(path): attribute type code \(code) is not one Quarry knows; skipped")
            return nil
        }
        let isTransient = try object.bool("NSIsTransient") ?? false
        if type == .undefined && !isTransient {
            warn("coredata.undefined-attribute", "\(path): an Undefined attribute that is not transient; skipped")
            return nil
        }
        var attribute = AttributeDescription(
            name: name, type: type,
            isOptional: try isOptional(object),
            isTransient: isTransient,
            isIndexed: try object.bool("NSIsIndexed") ?? false,
            valueTransformerName: try object.string("NSValueTransformerName")
        )
        if let raw = try object.value("NSDefaultValue") {
            if let value = Self.defaultValue(raw, for: type) {
                attribute.defaultValue = value
            } else {
                warn("coredata.default-value", "\(path): default value \(raw.kind) does not fit type \(type.rawValue); dropped")
            }
        }
        return attribute
    }

    private mutating func relationship(_ object: KeyedArchiveObject, name: String, path: String) throws(CoreDataModelCacheError) -> RelationshipDescription? {
        let destination: String
        if let entity = try object.reference("NSDestinationEntity") {
            destination = try entity.requireString("NSEntityName")
        } else if let named = try object.string("_NSDestinationEntityName") {
            destination = named
        } else {
            warn("coredata.no-destination", "\(path): a relationship without a destination entity; skipped")
            return nil
        }
        var inverse: String?
        if let other = try object.reference("NSInverseRelationship") {
            inverse = try other.requireString("NSPropertyName")
        } else {
            inverse = try object.string("_NSInverseRelationshipName")
        }
        let maxCount = try object.integer("NSMaxCount") ?? 0
        let minCount = try object.integer("NSMinCount") ?? 0
        let isToMany = maxCount != 1
        let isOrdered = try object.bool("NSIsOrdered") ?? false
        let isOptional = try isOptional(object)
        let ruleCode = try object.integer("NSDeleteRule") ?? 1
        let rule: DeleteRule
        if let known = Self.deleteRules[ruleCode] {
            rule = known
        } else {
            warn("coredata.unknown-delete-rule", "\(path): delete rule code \(ruleCode) is not one Quarry knows; Nullify used")
            rule = .nullify
        }
        return RelationshipDescription(
            name: name, destination: destination, inverse: inverse,
            isToMany: isToMany, isOrdered: isToMany && isOrdered,
            isOptional: isOptional, deleteRule: rule,
            // Counts mean something on to-many only (as in Xcode's models); clamp absurd ones.
            minCount: isToMany ? Int(clamping: max(0, minCount)) : 0,
            maxCount: isToMany ? Int(clamping: max(0, maxCount)) : 0
        )
    }

    /// The key path of a derived attribute's archived `NSDerivationExpression` when it is a key
    /// path expression (`NSKeyPath`), `nil` otherwise (a function expression is not rebuilt).
    private func derivationKeyPath(of property: KeyedArchiveObject) throws(CoreDataModelCacheError) -> String? {
        guard let expression = try property.reference("NSDerivationExpression"),
              let keyPath = try expression.string("NSKeyPath"), !keyPath.isEmpty else { return nil }
        return keyPath
    }

    /// Whether an archived property is optional. `NSKeyedArchiver` leaves out a Boolean that is
    /// false, so Core Data writes `NSIsOptional` only for optional properties: a property
    /// without it is required. Its `_P` flags say the same (bit 1: optional) and are read when
    /// the key is absent, for archives that omit it either way.
    private func isOptional(_ object: KeyedArchiveObject) throws(CoreDataModelCacheError) -> Bool {
        if let flag = try object.bool("NSIsOptional") { return flag }
        if let flags = try object.integer("_P") { return flags & Self.optionalFlag != 0 }
        return false
    }

    /// The bit of a property's `_P` flags Core Data sets on optional properties (`243` on an
    /// optional attribute, `241` on a required one, in real stores).
    static let optionalFlag: Int64 = 0x2

    private mutating func warn(_ name: String, _ message: String) {
        warnings.append(ModelWarning(name: name, message: message))
    }

    /// `NSAttributeType` codes.
    static let attributeTypes: [Int64: AttributeType] = [
        0: .undefined, 100: .integer16, 200: .integer32, 300: .integer64, 400: .decimal,
        500: .double, 600: .float, 700: .string, 800: .boolean, 900: .date, 1000: .binary,
        1100: .uuid, 1200: .uri, 1800: .transformable,
    ]

    /// `NSDeleteRule` codes.
    static let deleteRules: [Int64: DeleteRule] = [0: .noAction, 1: .nullify, 2: .cascade, 3: .deny]

    /// An archived default value as a ``Value`` of `type`, or `nil` when it does not fit.
    static func defaultValue(_ raw: KeyedArchiveValue, for type: AttributeType) -> Value? {
        switch (type, raw) {
        case (.integer16, .integer(let i)), (.integer32, .integer(let i)), (.integer64, .integer(let i)):
            return type.integerRange?.contains(i) == true ? .integer(i) : nil
        case (.integer16, .bool(let b)), (.integer32, .bool(let b)), (.integer64, .bool(let b)):
            return .integer(b ? 1 : 0)
        case (.double, .double(let d)), (.float, .double(let d)):
            return d.isFinite ? .double(d) : nil
        case (.double, .integer(let i)), (.float, .integer(let i)):
            return .double(Double(i))
        case (.decimal, .integer(let i)):
            return .decimal(Decimal(i))
        case (.decimal, .double(let d)):
            return d.isFinite ? .decimal(Decimal(d)) : nil
        case (.boolean, .bool(let b)):
            return .bool(b)
        case (.boolean, .integer(let i)):
            return .bool(i != 0)
        case (.string, .string(let s)):
            return .string(s)
        case (.date, .date(let d)):
            return .date(d)
        case (.binary, .data(let d)):
            return .data(d)
        default:
            return nil
        }
    }
}
