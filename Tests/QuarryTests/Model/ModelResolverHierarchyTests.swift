import Foundation
import Testing
@testable import Quarry

/// The resolver's inheritance bookkeeping, worked out once per model (issue 34, item 21: a
/// 10,000-entity model took 34 s to load, every entity's descendants found by walking every
/// other entity's chain): the same answers as walking the parents one entity at a time.
@Suite("Model resolver: inheritance worked out once")
struct ModelResolverHierarchyTests {
    /// Chains of `depth` by inheritance, a few trees of other shapes, entities listed out of order.
    static func forest(entities n: Int, depth: Int) -> ModelDefinition {
        var entities = (0..<n).map { i -> EntityDefinition in
            // Mostly chains; every seventh entity hangs off its chain's root instead (a fan).
            let parent: String? = i % depth == 0 ? nil : i % 7 == 0 ? "E\(i - i % depth)" : "E\(i - 1)"
            let next = (i + 1) % n
            return EntityDefinition(
                name: "E\(i)", parent: parent,
                attributes: [AttributeDescription(name: "a\(i)", type: .double, defaultValue: .integer(Int64(i)))],
                relationships: [
                    RelationshipDescription(name: "next\(i)", destination: "E\(next)", inverse: "prev\(next)"),
                    RelationshipDescription(name: "prev\(i)", destination: "E\((i + n - 1) % n)", inverse: "next\((i + n - 1) % n)", isToMany: true),
                ])
        }
        entities.reverse()  // subentities before their parents
        return ModelDefinition(entities: entities)
    }

    @Test("descendants, subentities, inherited properties and roots match walking each entity's parents")
    func matchesParentWalk() throws {
        let definition = Self.forest(entities: 400, depth: 9)
        let model = try ManagedObjectModel(definition)
        let byName = Dictionary(uniqueKeysWithValues: definition.entities.map { ($0.name, $0) })
        func ancestry(_ name: String) -> [String] {  // root first, the entity last
            var chain = [name]
            while let parent = byName[chain[0]]!.parent { chain.insert(parent, at: 0) }
            return chain
        }
        for entity in model.entities {
            let chain = ancestry(entity.name)
            #expect(entity.rootName == chain[0])
            #expect(model.entities[entity.rootIndex].name == chain[0])
            #expect(entity.attributes.map(\.name) == chain.flatMap { byName[$0]!.attributes.map(\.name) })
            #expect(entity.relationships.map(\.name) == chain.flatMap { byName[$0]!.relationships.map(\.name) })
            let descendants = model.entities.filter { ancestry($0.name).contains(entity.name) }.map(\.index).sorted()
            #expect(entity.selfAndDescendantIndices == descendants, "\(entity.name)")
            #expect(entity.subentityNames == model.entities.filter { byName[$0.name]!.parent == entity.name }.map(\.name), "\(entity.name)")
        }
        // Defaults are coerced once per declaring entity and inherited as coerced.
        let leaf = try #require(model.entity(named: "E8"))
        #expect(leaf.attribute("a0")?.defaultValue == .double(0))
    }

    @Test("a cycle is named by an entity that is its own ancestor, also when another entity's chain runs into it")
    func cycleNamesAnEntityOfTheCycle() {
        let definition = ModelDefinition(entities: [
            EntityDefinition(name: "A", parent: "Y"),  // first, and only leads into the cycle
            EntityDefinition(name: "Root"),
            EntityDefinition(name: "Y", parent: "Z"),
            EntityDefinition(name: "Z", parent: "Y"),
        ])
        #expect(throws: ModelError.inheritanceCycle(entity: "Y")) { try ManagedObjectModel(definition) }
        #expect(throws: ModelError.inheritanceCycle(entity: "Self")) {
            try ManagedObjectModel(ModelDefinition(entities: [EntityDefinition(name: "Self", parent: "Self")]))
        }
    }

    @Test("an inverse may point to the entity, an ancestor or a descendant, and to nothing else")
    func inverseAncestryAndDescent() throws {
        func model(inverseDestination: String) throws -> ManagedObjectModel {
            try ManagedObjectModel(ModelDefinition(entities: [
                EntityDefinition(name: "Base", relationships: [RelationshipDescription(name: "owner", destination: "Owner", inverse: "items")]),
                EntityDefinition(name: "Mid", parent: "Base"),
                EntityDefinition(name: "Leaf", parent: "Mid"),
                EntityDefinition(name: "Other"),
                EntityDefinition(name: "Owner", relationships: [
                    RelationshipDescription(name: "items", destination: inverseDestination, inverse: "owner", isToMany: true),
                ]),
            ]))
        }
        for destination in ["Base", "Mid", "Leaf"] { #expect(throws: Never.self) { try model(inverseDestination: destination) } }
        #expect(throws: ModelError.self) { try model(inverseDestination: "Other") }
    }
}
