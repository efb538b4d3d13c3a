/// Writes a ``ModelDefinition`` as canonical JSON model text: entities and properties sorted by
/// name, keys in a fixed order, keys holding their default value left out, one property per line.
struct JSONModelEncoder {
    func encode(_ definition: ModelDefinition) -> String {
        let canonical = definition.canonical
        let entities = canonical.entities.map(entity)
        var sections = [entities.isEmpty ? "  \"entities\": []" : "  \"entities\": [\n" + entities.joined(separator: ",\n") + "\n  ]"]
        if !canonical.fetchRequestTemplates.isEmpty {
            sections.append("  \"fetchRequests\": [\n" + canonical.fetchRequestTemplates.map {
                "    {\"name\": \(q($0.name)), \"entity\": \(q($0.entity))" + ($0.predicate.isEmpty ? "" : ", \"predicate\": \(q($0.predicate))") + "}"
            }.joined(separator: ",\n") + "\n  ]")
        }
        if !canonical.configurations.isEmpty {
            sections.append("  \"configurations\": [\n" + canonical.configurations.map {
                "    {\"name\": \(q($0.name)), \"entities\": [\($0.entities.map(q).joined(separator: ", "))]}"
            }.joined(separator: ",\n") + "\n  ]")
        }
        return "{\n" + sections.joined(separator: ",\n") + "\n}\n"
    }

    private func q(_ s: String) -> String { JSONModelValues.quoted(s) }

    private func entity(_ e: EntityDefinition) -> String {
        var fields = ["\"name\": \(q(e.name))"]
        if let p = e.parent { fields.append("\"parent\": \(q(p))") }
        if e.isAbstract { fields.append("\"abstract\": true") }
        if let c = e.className { fields.append("\"className\": \(q(c))") }
        if let r = e.renamingIdentifier { fields.append("\"renamingIdentifier\": \(q(r))") }
        if !e.attributes.isEmpty { fields.append(list("attributes", e.attributes.map(attribute))) }
        if !e.relationships.isEmpty { fields.append(list("relationships", e.relationships.map(relationship))) }
        if !e.compositeAttributes.isEmpty {
            fields.append(list("composites", e.compositeAttributes.map { c in
                var f = ["\"name\": \(q(c.name))"]
                if let t = c.typeName { f.append("\"type\": \(q(t))") }
                if !c.isOptional { f.append("\"optional\": false") }
                f.append("\"elements\": [" + c.elements.map(attribute).joined(separator: ", ") + "]")
                return "{" + f.joined(separator: ", ") + "}"
            }))
        }
        if !e.fetchedProperties.isEmpty {
            fields.append(list("fetchedProperties", e.fetchedProperties.map { p in
                var f = ["\"name\": \(q(p.name))", "\"destination\": \(q(p.destination))"]
                if !p.predicate.isEmpty { f.append("\"predicate\": \(q(p.predicate))") }
                if !p.isOptional { f.append("\"optional\": false") }
                return "{" + f.joined(separator: ", ") + "}"
            }))
        }
        if !e.indexes.isEmpty {
            fields.append(list("indexes", e.indexes.map {
                "{\"name\": \(q($0.name)), \"attributes\": [\($0.attributes.map(q).joined(separator: ", "))]}"
            }))
        }
        if !e.uniquenessConstraints.isEmpty {
            fields.append("\"unique\": [" + e.uniquenessConstraints.map {
                "[" + $0.map(q).joined(separator: ", ") + "]"
            }.joined(separator: ", ") + "]")
        }
        return "    {\n" + fields.map { "      " + $0 }.joined(separator: ",\n") + "\n    }"
    }

    private func list(_ key: String, _ items: [String]) -> String {
        "\"\(key)\": [\n" + items.map { "        " + $0 }.joined(separator: ",\n") + "\n      ]"
    }

    private func attribute(_ a: AttributeDescription) -> String {
        var f = ["\"name\": \(q(a.name))", "\"type\": \(q(a.type.rawValue))"]
        if !a.isOptional { f.append("\"optional\": false") }
        if a.isTransient { f.append("\"transient\": true") }
        if let d = a.defaultValue { f.append("\"default\": \(JSONModelValues.encodeDefault(d))") }
        if let m = a.minValue { f.append("\"min\": \(JSONModelValues.number(m))") }
        if let m = a.maxValue { f.append("\"max\": \(JSONModelValues.number(m))") }
        if let r = a.regularExpression { f.append("\"regex\": \(q(r))") }
        if a.isIndexed { f.append("\"indexed\": true") }
        if let i = a.renamingIdentifier { f.append("\"renamingIdentifier\": \(q(i))") }
        if let t = a.valueTransformerName { f.append("\"valueTransformer\": \(q(t))") }
        if a.preservesValueInHistoryOnDeletion { f.append("\"preservesValueInHistoryOnDeletion\": true") }
        if let d = a.derivationExpression { f.append("\"derivation\": \(q(d))") }
        return "{" + f.joined(separator: ", ") + "}"
    }

    private func relationship(_ r: RelationshipDescription) -> String {
        var f = ["\"name\": \(q(r.name))", "\"destination\": \(q(r.destination))"]
        if let i = r.inverse { f.append("\"inverse\": \(q(i))") }
        if r.isToMany { f.append("\"toMany\": true") }
        if r.isOrdered { f.append("\"ordered\": true") }
        if !r.isOptional { f.append("\"optional\": false") }
        if r.deleteRule != .nullify { f.append("\"deleteRule\": \(q(r.deleteRule.rawValue))") }
        if r.minCount != 0 { f.append("\"minCount\": \(r.minCount)") }
        if r.maxCount != 0 { f.append("\"maxCount\": \(r.maxCount)") }
        if let i = r.renamingIdentifier { f.append("\"renamingIdentifier\": \(q(i))") }
        return "{" + f.joined(separator: ", ") + "}"
    }
}
