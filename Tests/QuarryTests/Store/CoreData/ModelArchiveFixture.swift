import Foundation

/// Builds keyed archives of an `NSManagedObjectModel` laid out as Core Data writes them into
/// `Z_MODELCACHE` (entities in an `NSKnownKeysDictionary1`, properties in an
/// `NSMutableDictionary`, back-pointers from entity to model and property to entity).
enum ModelArchiveFixture {
    struct Attribute {
        var name: String
        var code: Int
        var isOptional = true
        var isTransient = false
        var defaultValue: Any?
        var valueTransformerName: String?
    }

    struct Relationship {
        var name: String
        var destination: String
        var inverse: String?
        var maxCount = 0
        var isOrdered = false
        var deleteRule = 1
    }

    struct Entity {
        var name: String
        var parent: String?
        var isAbstract = false
        var attributes: [Attribute] = []
        var relationships: [Relationship] = []
        /// Names of fetched properties (which Quarry skips with a warning).
        var fetchedProperties: [String] = []
    }

    /// The archive (uncompressed binary property list) of a model holding `entities`.
    static func archive(_ entities: [Entity], rootClass: String = "NSManagedObjectModel") throws -> Data {
        var a = KeyedArchiveFixture()
        let uid = KeyedArchiveFixture.uid
        let model = a.add("placeholder")
        // Entities first (placeholders), so properties and superentities can point at them.
        var entityUIDs: [String: Int] = [:]
        for e in entities { entityUIDs[e.name] = a.add("placeholder") }
        var propertyUIDs: [String: [String: Int]] = [:]
        for e in entities {
            for r in e.relationships { propertyUIDs[e.name, default: [:]][r.name] = a.add("placeholder") }
        }
        for e in entities {
            let entityUID = entityUIDs[e.name]!
            var pairs: [(Int, Int)] = []
            for attribute in e.attributes {
                var fields: [String: Any] = [
                    "NSPropertyName": uid(a.add(attribute.name)), "NSAttributeType": attribute.code,
                    "NSIsOptional": attribute.isOptional, "NSEntity": uid(entityUID), "_P": 243,
                ]
                if attribute.isTransient { fields["NSIsTransient"] = true }
                if let name = attribute.valueTransformerName { fields["NSValueTransformerName"] = uid(a.add(name)) }
                fields["NSDefaultValue"] = attribute.defaultValue.map { uid(a.add($0)) } ?? uid(0)
                let p = a.object("NSAttributeDescription", ["NSPropertyDescription", "NSObject"], fields)
                pairs.append((a.add(attribute.name), p))
            }
            for r in e.relationships {
                var fields: [String: Any] = [
                    "NSPropertyName": uid(a.add(r.name)), "NSEntity": uid(entityUID),
                    "NSDestinationEntity": uid(entityUIDs[r.destination] ?? 0),
                    "_NSDestinationEntityName": uid(a.add(r.destination)),
                    "NSMaxCount": r.maxCount, "NSMinCount": 0, "NSDeleteRule": r.deleteRule, "NSIsOptional": true,
                ]
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
            let properties = a.dictionary(pairs)
            var fields: [String: Any] = [
                "NSEntityName": uid(a.add(e.name)), "NSClassNameForEntity": uid(a.add(e.name)),
                "NSProperties": uid(properties), "NSManagedObjectModel": uid(model),
                "NSSuperentity": uid(e.parent.flatMap { entityUIDs[$0] } ?? 0),
            ]
            if e.isAbstract { fields["NSIsAbstract"] = true }
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
        a.objects[model] = [
            "NSEntities": uid(entityMap), "NSFetchRequestTemplates": uid(0),
            "$class": uid(a.classUID(rootClass)),
        ] as [String: Any]
        return try a.archive(root: model)
    }
}
