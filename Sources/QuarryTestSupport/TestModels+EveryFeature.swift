import Foundation
import Quarry

extension TestModels {
    /// A model that uses every feature a model format has to carry: every attribute type, a
    /// default of each type that has one, bounds, a regular expression with XML's special
    /// characters, transient and indexed attributes, an abstract parent with two sub-entities,
    /// to-one and to-many (ordered) relationships with inverses, every delete rule, relationship
    /// counts, uniqueness constraints (single and compound), indexes (single and compound) and
    /// renaming identifiers on an entity, an attribute and a relationship.
    ///
    /// No Binary default: Xcode's format has none (Core Data ignores them).
    public static func everyFeatureDefinition() -> ModelDefinition {
        let defaults: [AttributeType: Value] = [
            .integer16: .integer(-7), .integer32: .integer(70_000), .integer64: .integer(1 << 40),
            .decimal: .decimal(Decimal(string: "12.345")!), .double: .double(2.5e-3), .float: .double(0.5),
            .string: .string("a \"quoted\" <tag> & 'more'\ttab\nline"), .boolean: .bool(false),
            .date: .date(Date(timeIntervalSinceReferenceDate: 123_456.789)),
            .uuid: .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!),
            .uri: .uri(URL(string: "https://example.com/a?b=c&d=e")!),
            .transformable: .json(.object(["k": .array([.number(1), .string("x"), .null, .bool(true)])])),
        ]
        var attributes: [AttributeDescription] = AttributeType.allCases.map { type in
            // Undefined attributes exist only as transients.
            AttributeDescription(name: "plain" + type.rawValue.replacingOccurrences(of: " ", with: ""), type: type,
                                 isTransient: type == .undefined)
        }
        attributes += AttributeType.allCases.compactMap { type in
            defaults[type].map {
                AttributeDescription(
                    name: "default" + type.rawValue.replacingOccurrences(of: " ", with: ""), type: type,
                    isOptional: false, defaultValue: $0)
            }
        }
        attributes += [
            AttributeDescription(name: "bounded", type: .integer32, minValue: -3, maxValue: 99),
            AttributeDescription(name: "fraction", type: .double, minValue: 0.25, maxValue: 1e20),
            AttributeDescription(name: "code", type: .string, isOptional: false, minValue: 1, maxValue: 8,
                                 regularExpression: #"[A-Z]{1,3}(<&>|"')?\d*"#, isIndexed: true),
            AttributeDescription(name: "scratch", type: .string, isTransient: true),
            AttributeDescription(name: "title", type: .string, renamingIdentifier: "name"),
        ]
        let item = EntityDefinition(
            name: "Item", parent: "Thing", className: "ItemObject", attributes: attributes,
            relationships: [
                RelationshipDescription(name: "owner", destination: "Owner", inverse: "items", isOptional: false,
                                        deleteRule: .noAction),
                RelationshipDescription(name: "parts", destination: "Part", inverse: "item", isToMany: true,
                                        isOrdered: true, deleteRule: .cascade, minCount: 1, maxCount: 5,
                                        renamingIdentifier: "pieces"),
                RelationshipDescription(name: "related", destination: "Item", isToMany: true),
            ],
            indexes: [IndexDescription(name: "byCodeAndTitle", attributes: ["code", "title"]),
                      IndexDescription(name: "byBounded", attributes: ["bounded"])],
            uniquenessConstraints: [["code"], ["title", "bounded"]])
        return ModelDefinition(entities: [
            EntityDefinition(name: "Thing", isAbstract: true,
                             attributes: [AttributeDescription(name: "created", type: .date, isOptional: false)]),
            item,
            EntityDefinition(name: "Gadget", parent: "Thing",
                             attributes: [AttributeDescription(name: "watts", type: .float)], renamingIdentifier: "Widget"),
            EntityDefinition(name: "Owner", attributes: [AttributeDescription(name: "name", type: .string)],
                             relationships: [RelationshipDescription(name: "items", destination: "Item", inverse: "owner",
                                                                     isToMany: true, deleteRule: .deny)]),
            EntityDefinition(name: "Part", attributes: [AttributeDescription(name: "label", type: .string)],
                             relationships: [RelationshipDescription(name: "item", destination: "Item", inverse: "parts",
                                                                     deleteRule: .nullify)]),
        ])
    }

    /// ``everyFeatureDefinition()``, resolved.
    public static func everyFeature() throws -> ManagedObjectModel {
        try ManagedObjectModel(everyFeatureDefinition())
    }
}
