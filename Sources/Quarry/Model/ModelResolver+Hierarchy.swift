extension ModelResolver {
    /// The inheritance of a model's entities, by index into the definition's entity list,
    /// worked out once so that resolving a model stays linear in its size.
    struct Hierarchy {
        /// Each entity's inheritance chain, root first, the entity itself last.
        let chains: [[Int]]
        /// Each entity's direct subentities, in definition order.
        let children: [[Int]]
        /// Each entity and all its descendants, ascending.
        let selfAndDescendants: [[Int]]
        /// Each entity's relationships (its own and inherited) by name; the first of a name wins.
        private let relationshipsByName: [[String: RelationshipDescription]]

        /// - Parameter parentIndex: each entity's parent, already known to exist.
        /// - Throws: ``ModelError/inheritanceCycle(entity:)`` naming an entity of the first cycle
        ///   a chain (in definition order) runs into: one that is its own ancestor.
        init(entities: [EntityDefinition], parentIndex: [Int?]) throws {
            let count = entities.count
            var chains = [[Int]?](repeating: nil, count: count)
            var onPath = [Bool](repeating: false, count: count)
            for start in 0..<count where chains[start] == nil {
                // Walk up to an entity whose chain is known (or a root), then fill the path back down.
                var path: [Int] = []
                var current: Int? = start
                while let c = current, chains[c] == nil {
                    guard !onPath[c] else { throw ModelError.inheritanceCycle(entity: entities[c].name) }
                    onPath[c] = true
                    path.append(c)
                    current = parentIndex[c]
                }
                var chain = current.flatMap { chains[$0] } ?? []
                for c in path.reversed() {
                    chain.append(c)
                    chains[c] = chain
                    onPath[c] = false
                }
            }
            let resolved = chains.map { $0! }
            var children = [[Int]](repeating: [], count: count)
            for (index, parent) in parentIndex.enumerated() {
                if let parent { children[parent].append(index) }
            }
            var descendants = [[Int]](repeating: [], count: count)
            for (index, chain) in resolved.enumerated() {
                for ancestor in chain { descendants[ancestor].append(index) }
            }
            self.chains = resolved
            self.children = children
            self.selfAndDescendants = descendants
            self.relationshipsByName = resolved.map { chain in
                var byName: [String: RelationshipDescription] = [:]
                for level in chain {
                    for r in entities[level].relationships where byName[r.name] == nil { byName[r.name] = r }
                }
                return byName
            }
            assert(self.chains.indices.allSatisfy { self.chains[$0].last == $0 }, "every chain ends with its entity")
        }

        /// The relationship called `name` of the entity at `index`, its own or inherited.
        func relationship(named name: String, of index: Int) -> RelationshipDescription? {
            relationshipsByName[index][name]
        }
    }
}
