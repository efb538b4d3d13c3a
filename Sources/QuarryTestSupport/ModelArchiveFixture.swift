import Foundation

/// Builds keyed archives of an `NSManagedObjectModel` laid out as Core Data writes them into
/// `Z_MODELCACHE` (entities in an `NSKnownKeysDictionary1`, properties in an
/// `NSMutableDictionary`, back-pointers from entity to model and property to entity, sub-entities
/// by name, the model's version identifiers in an `NSMutableSet`).
///
/// As in real stores, a sub-entity's `NSProperties` also holds every property it inherits (the
/// ancestor's own objects), and `NSIsOptional` is written only on optional properties (a
/// required one has none; its `_P` flags are 241 instead of 243).
public enum ModelArchiveFixture {
    /// An `NSAttributeDescription`: `code` is its `NSAttributeType` (700 string, 900 date…).
    public struct Attribute {
        /// Its name.
        public var name: String
        /// Its `NSAttributeType` code.
        public var code: Int
        /// `NSIsOptional`.
        public var isOptional = true
        /// `NSIsTransient`.
        public var isTransient = false
        /// `NSDefaultValue`, a property-list value.
        public var defaultValue: Any?
        /// `NSValueTransformerName` (an app's own transformer, for transformables).
        public var valueTransformerName: String?
        /// For an `NSDerivedAttributeDescription`: the key path of its `NSDerivationExpression`.
        public var derivationKeyPath: String?

        /// An attribute named `name` of type code `code`.
        public init(name: String, code: Int, isOptional: Bool = true, isTransient: Bool = false, defaultValue: Any? = nil,
                    valueTransformerName: String? = nil) {
            self.name = name
            self.code = code
            self.isOptional = isOptional
            self.isTransient = isTransient
            self.defaultValue = defaultValue
            self.valueTransformerName = valueTransformerName
        }
    }

    /// An `NSRelationshipDescription`: `maxCount` 1 is to-one, 0 an unbounded to-many.
    public struct Relationship {
        /// Its name.
        public var name: String
        /// The destination entity's name.
        public var destination: String
        /// The inverse relationship's name.
        public var inverse: String?
        /// `NSMaxCount`: 1 to-one, 0 unbounded.
        public var maxCount = 0
        /// `NSIsOrdered`.
        public var isOrdered = false
        /// `NSDeleteRule` code.
        public var deleteRule = 1
        /// `NSIsOptional`.
        public var isOptional = true

        /// A relationship `name` to `destination` (an entity name).
        public init(name: String, destination: String, inverse: String? = nil, maxCount: Int = 0, isOrdered: Bool = false, deleteRule: Int = 1,
                    isOptional: Bool = true) {
            self.name = name
            self.destination = destination
            self.inverse = inverse
            self.maxCount = maxCount
            self.isOrdered = isOrdered
            self.deleteRule = deleteRule
            self.isOptional = isOptional
        }
    }

    /// An `NSEntityDescription` with its own (not inherited) properties.
    public struct Entity {
        /// Its name.
        public var name: String
        /// `NSSuperentity`'s name.
        public var parent: String?
        /// `NSIsAbstract`.
        public var isAbstract = false
        /// Its attributes.
        public var attributes: [Attribute] = []
        /// Its relationships.
        public var relationships: [Relationship] = []
        /// Names of fetched properties (which Quarry skips with a warning).
        public var fetchedProperties: [String] = []

        /// An entity named `name`, a sub-entity of `parent` when given.
        public init(name: String, parent: String? = nil, isAbstract: Bool = false, attributes: [Attribute] = [],
                    relationships: [Relationship] = [], fetchedProperties: [String] = []) {
            self.name = name
            self.parent = parent
            self.isAbstract = isAbstract
            self.attributes = attributes
            self.relationships = relationships
            self.fetchedProperties = fetchedProperties
        }
    }

    /// The archive (uncompressed binary property list) of a model holding `entities`.
    public static func archive(_ entities: [Entity], rootClass: String = "NSManagedObjectModel") throws -> Data {
        var a = KeyedArchiveFixture()
        let uid = KeyedArchiveFixture.uid
        let model = a.add("placeholder")
        // Entities first (placeholders), so properties and superentities can point at them.
        var entityUIDs: [String: Int] = [:]
        for e in entities { entityUIDs[e.name] = a.add("placeholder") }
        var propertyUIDs: [String: [String: Int]] = [:]
        var ownPairs: [String: [(Int, Int)]] = [:]
        for e in entities {
            for r in e.relationships { propertyUIDs[e.name, default: [:]][r.name] = a.add("placeholder") }
        }
        for e in entities {
            let entityUID = entityUIDs[e.name]!
            var pairs: [(Int, Int)] = []
            for attribute in e.attributes {
                var fields: [String: Any] = [
                    "NSPropertyName": uid(a.add(attribute.name)), "NSAttributeType": attribute.code,
                    "NSEntity": uid(entityUID), "_P": attribute.isOptional ? 243 : 241,
                ]
                if attribute.isOptional { fields["NSIsOptional"] = true }
                if attribute.isTransient { fields["NSIsTransient"] = true }
                if let valueClass = Self.valueClassNames[attribute.code] { fields["NSAttributeValueClassName"] = uid(a.add(valueClass)) }
                if let name = attribute.valueTransformerName { fields["NSValueTransformerName"] = uid(a.add(name)) }
                fields["NSDefaultValue"] = attribute.defaultValue.map { uid(a.add($0)) } ?? uid(0)
                let p: Int
                if let keyPath = attribute.derivationKeyPath {
                    fields["NSDerivationExpression"] = uid(a.object("NSKeyPathExpression", ["NSExpression", "NSObject"], [
                        "NSKeyPath": uid(a.add(keyPath)), "NSExpressionType": 3,
                    ]))
                    p = a.object("NSDerivedAttributeDescription", ["NSAttributeDescription", "NSPropertyDescription", "NSObject"], fields)
                } else {
                    p = a.object("NSAttributeDescription", ["NSPropertyDescription", "NSObject"], fields)
                }
                pairs.append((a.add(attribute.name), p))
            }
            for r in e.relationships {
                var fields: [String: Any] = [
                    "NSPropertyName": uid(a.add(r.name)), "NSEntity": uid(entityUID),
                    "NSDestinationEntity": uid(entityUIDs[r.destination] ?? 0),
                    "_NSDestinationEntityName": uid(a.add(r.destination)),
                    "NSMaxCount": r.maxCount, "NSMinCount": 0, "NSDeleteRule": r.deleteRule,
                    "_P": r.isOptional ? 243 : 241,
                ]
                if r.isOptional { fields["NSIsOptional"] = true }
                if let inverse = r.inverse {
                    fields["NSInverseRelationship"] = uid(propertyUIDs[r.destination]?[inverse] ?? 0)
                    fields["_NSInverseRelationshipName"] = uid(a.add(inverse))
                }
                if r.isOrdered { fields["NSIsOrdered"] = true }
                fields["$class"] = uid(a.classUID("NSRelationshipDescription", ["NSPropertyDescription", "NSObject"]))
                let p = propertyUIDs[e.name]![r.name]!
                a.objects[p] = fields
                pairs.append((a.add(r.name), p))
            }
            for name in e.fetchedProperties {
                let p = a.object("NSFetchedPropertyDescription", ["NSPropertyDescription", "NSObject"], [
                    "NSPropertyName": uid(a.add(name)), "NSEntity": uid(entityUID),
                ])
                pairs.append((a.add(name), p))
            }
            ownPairs[e.name] = pairs
        }
        for e in entities {
            let entityUID = entityUIDs[e.name]!
            // Core Data lists inherited properties too: the ancestors' own objects, nearest first.
            var pairs = ownPairs[e.name]!
            var parent = e.parent
            var visited: Set<String> = [e.name]
            while let name = parent, visited.insert(name).inserted, let ancestor = entities.first(where: { $0.name == name }) {
                pairs += ownPairs[name] ?? []
                parent = ancestor.parent
            }
            let properties = a.dictionary(pairs)
            var fields: [String: Any] = [
                "NSEntityName": uid(a.add(e.name)), "NSClassNameForEntity": uid(a.add(e.name)),
                "NSProperties": uid(properties), "NSManagedObjectModel": uid(model),
                "NSSuperentity": uid(e.parent.flatMap { entityUIDs[$0] } ?? 0),
            ]
            if e.isAbstract { fields["NSIsAbstract"] = true }
            // Core Data names the sub-entities too (a dictionary, or $null when there are none).
            let children = entities.filter { $0.parent == e.name }
            fields["NSSubentities"] = uid(children.isEmpty ? 0 : a.dictionary(children.map { (a.add($0.name), entityUIDs[$0.name]!) }))
            fields["$class"] = uid(a.classUID("NSEntityDescription"))
            a.objects[entityUID] = fields
        }
        // Core Data's NSKnownKeysDictionary1: names in searchMapping.keys, entities in values.
        let keys = a.array(entities.map { a.add($0.name) })
        let mapping = a.object("NSKnownKeysMappingStrategy1", ["NSKnownKeysMappingStrategy", "NSObject"], [
            "keys": uid(keys), "length": entities.count, "version": 1,
        ])
        let values = a.array(entities.map { entityUIDs[$0.name]! })
        let entityMap = a.object("NSKnownKeysDictionary1", ["NSKnownKeysDictionary", "NSMutableDictionary", "NSDictionary", "NSObject"], [
            "searchMapping": uid(mapping), "values": uid(values), "emptyToken": uid(a.add("__empty_slot_token__")), "version": 1,
        ])
        let versionIdentifiers = a.object("NSMutableSet", ["NSSet", "NSObject"], ["NS.objects": [uid(a.add(""))]])
        a.objects[model] = [
            "NSEntities": uid(entityMap), "NSFetchRequestTemplates": uid(0), "NSVersionIdentifiers": uid(versionIdentifiers),
            "$class": uid(a.classUID(rootClass)),
        ] as [String: Any]
        return try a.archive(root: model)
    }

    /// `NSAttributeValueClassName` per attribute type code, as Xcode's models set it.
    static let valueClassNames: [Int: String] = [
        100: "NSNumber", 200: "NSNumber", 300: "NSNumber", 400: "NSDecimalNumber", 500: "NSNumber",
        600: "NSNumber", 700: "NSString", 800: "NSNumber", 900: "NSDate", 1000: "NSData", 1100: "NSUUID", 1200: "NSURL",
    ]
}
