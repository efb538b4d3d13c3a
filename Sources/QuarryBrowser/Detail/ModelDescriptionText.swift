import Foundation
import Quarry
import QuarryTUI

/// The readable description `quarry model` prints (and the browser's `m` shows, one entity at
/// a time): per entity its parent, attributes with types and flags (a derived one with its
/// expression), composite attributes with their elements, relationships, fetched properties,
/// uniqueness constraints and indexes; then the model's fetch request templates,
/// configurations and the loader's warnings. Control characters in names, defaults and messages are escaped (they come from
/// the model file).
///
/// ```
/// Ticker  (parent Asset)
///   attributes:
///     price   Double  required  default 0.0  min 0
///   relationships:
///     quotes  -> Quote  to-many  optional  inverse Quote.ticker  delete Cascade
/// ```
public struct ModelDescriptionText: Sendable {
    /// Where the model came from (a model file, or a store and its recorded model).
    public var source: String
    /// The model.
    public var model: ManagedObjectModel

    /// Describes `model`, which came from `source`.
    public init(source: String, model: ManagedObjectModel) {
        self.source = source
        self.model = model
    }

    /// The whole description.
    public var text: String {
        var lines = [
            "model: \(source)",
            "version hash: \(model.versionHash)",
            "entities: \(model.entities.count)",
        ]
        for entity in model.entities {
            lines.append("")
            lines += describe(entity)
        }
        if !model.fetchRequestTemplates.isEmpty {
            lines.append("")
            lines.append("fetch request templates:")
            lines += table(model.fetchRequestTemplates.map { t in
                [t.name, "-> \(t.entity)", t.predicate.isEmpty ? "every object" : "where \(t.predicate)"]
            }).map { String($0.dropFirst(2)) }
        }
        if !model.configurations.isEmpty {
            lines.append("")
            lines.append("configurations:")
            lines += model.configurations.map { "  \($0.name): \($0.entities.joined(separator: ", "))" }
        }
        lines.append("")
        if model.warnings.isEmpty {
            lines.append("warnings: none")
        } else {
            lines.append("warnings: \(model.warnings.count)")
            lines += model.warnings.map { "  \($0)" }
        }
        return lines.map { ControlEscaping.escaped($0) }.joined(separator: "\n")
    }

    /// The lines describing `entity` alone (its header, attributes, relationships,
    /// constraints and indexes), control characters escaped.
    public func lines(for entity: EntityDescription) -> [String] {
        describe(entity).map { ControlEscaping.escaped($0) }
    }

    private func describe(_ entity: EntityDescription) -> [String] {
        let own = entity.definition
        var header = [entity.name]
        if let parent = own.parent { header.append("(parent \(parent))") }
        if own.isAbstract { header.append("abstract") }
        if let renamed = own.renamingIdentifier { header.append("renamed from \(renamed)") }
        var lines = [header.joined(separator: "  ")]
        if !entity.subentityNames.isEmpty { lines.append("  sub-entities: \(entity.subentityNames.joined(separator: ", "))") }
        let inherited = entity.attributes.count + entity.relationships.count - own.attributes.count - own.relationships.count
        if inherited > 0, let parent = own.parent {
            lines.append("  inherits \(inherited) \(inherited == 1 ? "property" : "properties") from \(parent)")
        }
        if !own.attributes.isEmpty {
            lines.append("  attributes:")
            lines += table(own.attributes.map(attributeColumns))
        }
        if !own.compositeAttributes.isEmpty {
            lines.append("  composite attributes:")
            for c in own.compositeAttributes {
                let type = c.typeName.map { "  type \($0)" } ?? ""
                lines.append("    \(c.name)  \(c.isOptional ? "optional" : "required")\(type)  stored as \(c.elements.map { c.storedName(of: $0.name) }.joined(separator: ", "))")
                lines += table(c.elements.map(attributeColumns)).map { "  " + $0 }
            }
        }
        if !own.relationships.isEmpty {
            lines.append("  relationships:")
            lines += table(own.relationships.map(relationshipColumns))
        }
        if !own.fetchedProperties.isEmpty {
            lines.append("  fetched properties:")
            lines += table(own.fetchedProperties.map { p in
                [p.name, "-> \(p.destination)", p.predicate.isEmpty ? "every object" : "where \(p.predicate)"]
            })
        }
        for constraint in own.uniquenessConstraints {
            lines.append("  unique: \(constraint.joined(separator: ", "))")
        }
        for index in own.indexes {
            lines.append("  index \(index.name): \(index.attributes.joined(separator: ", "))")
        }
        return lines
    }

    private func attributeColumns(_ a: AttributeDescription) -> [String] {
        var flags = [a.isOptional ? "optional" : "required"]
        if a.isTransient { flags.append("transient") }
        if a.isIndexed { flags.append("indexed") }
        if let value = a.defaultValue { flags.append("default \(Self.defaultText(value))") }
        if let min = a.minValue { flags.append("min \(Self.number(min))") }
        if let max = a.maxValue { flags.append("max \(Self.number(max))") }
        if let regex = a.regularExpression { flags.append("regex \(regex)") }
        if let renamed = a.renamingIdentifier { flags.append("renamed from \(renamed)") }
        if a.preservesValueInHistoryOnDeletion { flags.append("kept in history on deletion") }
        if let derivation = a.derivationExpression { flags.append("derived from \(derivation)") }
        return [a.name, a.type.rawValue, flags.joined(separator: "  ")]
    }

    /// A default as the description shows it: a string's line breaks, tabs and other control
    /// characters (and backslashes) as backslash escapes, so the default stays on its line and
    /// no terminal control reaches the screen (`'a\tb\nc'`).
    static func defaultText(_ value: Value) -> String {
        guard case .string(let text) = value else { return "\(value)" }
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": escaped += "\\n"
            case "\t": escaped += "\\t"
            case "\r": escaped += "\\r"
            case "\\": escaped += "\\\\"
            default:
                if scalar.properties.generalCategory == .control {
                    escaped += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    escaped.unicodeScalars.append(scalar)
                }
            }
        }
        return "'" + escaped + "'"
    }

    private func relationshipColumns(_ r: RelationshipDescription) -> [String] {
        var flags = [r.isToMany ? (r.isOrdered ? "to-many ordered" : "to-many") : "to-one"]
        flags.append(r.isOptional ? "optional" : "required")
        flags.append(r.inverse.map { "inverse \(r.destination).\($0)" } ?? "no inverse")
        flags.append("delete \(r.deleteRule.rawValue)")
        if r.isToMany, r.minCount != 0 { flags.append("min \(r.minCount)") }
        if r.isToMany, r.maxCount != 0 { flags.append("max \(r.maxCount)") }
        if let renamed = r.renamingIdentifier { flags.append("renamed from \(renamed)") }
        return [r.name, "-> \(r.destination)", flags.joined(separator: "  ")]
    }

    /// Rows of columns, each column padded to its widest cell, indented under a heading.
    private func table(_ rows: [[String]]) -> [String] {
        let widths = (0..<3).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            let cells = row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }
            var line = "    " + cells.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// A bound without a fraction when it has none.
    private static func number(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
    }
}
