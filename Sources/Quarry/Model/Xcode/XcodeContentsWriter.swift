import Foundation

/// Writes a ``ModelDefinition`` as the `contents` XML of an Xcode `.xcdatamodel`, the way
/// Xcode's model editor writes it: entities and properties sorted by name, only the XML
/// attributes that differ from Xcode's defaults, four-space indentation.
///
/// What Xcode's format cannot hold (a Binary default, an explicit `null` default, text with a
/// control character XML 1.0 forbids) is left out and reported as a warning, so a caller can
/// tell the user the conversion lost something.
struct XcodeContentsWriter {
    /// The XML document.
    private(set) var xml = ""
    /// What was left out.
    private(set) var warnings: [ModelWarning] = []

    init(_ definition: ModelDefinition) {
        xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" \
            minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">

            """
        let canonical = definition.canonical
        compositeTypeNames = Self.compositeTypeNames(canonical.entities)
        for entity in canonical.entities { write(entity) }
        writeCompositeTypes(canonical.entities)
        for template in canonical.fetchRequestTemplates {
            xml += "    " + element("fetchRequest", [
                ("name", template.name), ("entity", template.entity),
                ("predicateString", template.predicate.isEmpty ? nil : template.predicate),
            ], of: "fetch request '\(template.name)'") + "\n"
        }
        for configuration in canonical.configurations {
            let members = configuration.entities.map {
                "        " + element("memberEntity", [("name", $0)], of: "configuration '\(configuration.name)'")
            }
            xml += "    " + element("configuration", [("name", configuration.name)], of: "configuration '\(configuration.name)'", closed: members.isEmpty) + "\n"
            if !members.isEmpty { xml += members.joined(separator: "\n") + "\n    </configuration>\n" }
        }
        xml += "</model>\n"
    }

    /// The `<composite>` type name each composite attribute names, by entity and attribute:
    /// its own ``CompositeAttributeDescription/typeName`` when no other composite with other
    /// elements claims it, else `<Entity><Attribute>` made unique.
    private var compositeTypeNames: [String: String] = [:]

    private static func compositeTypeNames(_ entities: [EntityDefinition]) -> [String: String] {
        var names: [String: String] = [:]
        var elementsByType: [String: [AttributeDescription]] = [:]
        for entity in entities {
            for c in entity.compositeAttributes {
                var name = c.typeName ?? (entity.name + c.name.prefix(1).uppercased() + c.name.dropFirst())
                var n = 2
                let base = name
                while let taken = elementsByType[name], taken != c.elements { name = "\(base)\(n)"; n += 1 }
                elementsByType[name] = c.elements
                names[entity.name + "." + c.name] = name
            }
        }
        return names
    }

    /// One `<composite>` element per type the entities' composite attributes name.
    private mutating func writeCompositeTypes(_ entities: [EntityDefinition]) {
        var written = Set<String>()
        for entity in entities {
            for c in entity.compositeAttributes {
                guard let typeName = compositeTypeNames[entity.name + "." + c.name], written.insert(typeName).inserted else { continue }
                xml += "    " + element("composite", [("name", typeName)], of: "composite '\(typeName)'", closed: false) + "\n"
                for a in c.elements { xml += "        " + attribute(a, of: typeName) + "\n" }
                xml += "    </composite>\n"
            }
        }
    }

    // MARK: Elements

    private mutating func write(_ entity: EntityDefinition) {
        let fields: [(String, String?)] = [
            ("name", entity.name),
            ("representedClassName", entity.className ?? entity.name),
            ("isAbstract", entity.isAbstract ? "YES" : nil),
            ("parentEntity", entity.parent),
            ("elementID", entity.renamingIdentifier),
            ("syncable", "YES"),
        ]
        // Xcode interleaves attributes and relationships in one name order.
        var properties: [(name: String, element: String)] = []
        properties += entity.attributes.map { ($0.name, attribute($0, of: entity.name)) }
        properties += entity.relationships.map { ($0.name, relationship($0, of: entity.name)) }
        properties += entity.compositeAttributes.map { c in
            (c.name, element("attribute", [
                ("name", c.name), ("optional", c.isOptional ? "YES" : nil), ("attributeType", "Composite"),
                ("composite", compositeTypeNames[entity.name + "." + c.name]),
            ], of: "'\(entity.name).\(c.name)'"))
        }
        var body = properties.sorted { $0.name < $1.name }.map { "        " + $0.element }
        for fetched in entity.fetchedProperties {
            let owner = "fetched property '\(entity.name).\(fetched.name)'"
            body.append("        " + element("fetchedProperty", [("name", fetched.name), ("optional", fetched.isOptional ? "YES" : nil)], of: owner, closed: false))
            body.append("            " + element("fetchRequest", [
                ("name", "fetchedPropertyFetchRequest"), ("entity", fetched.destination),
                ("predicateString", fetched.predicate.isEmpty ? nil : fetched.predicate),
            ], of: owner))
            body.append("        </fetchedProperty>")
        }
        for index in entity.indexes {
            body.append("        <fetchIndex name=\"\(escaped(index.name))\">")
            body += index.attributes.map {
                "            " + element("fetchIndexElement", [("property", $0), ("type", "Binary"), ("order", "ascending")], of: "index '\(entity.name).\(index.name)'")
            }
            body.append("        </fetchIndex>")
        }
        if !entity.uniquenessConstraints.isEmpty {
            body.append("        <uniquenessConstraints>")
            for constraint in entity.uniquenessConstraints {
                body.append("            <uniquenessConstraint>")
                body += constraint.map { "                " + element("constraint", [("value", $0)], of: "a constraint of '\(entity.name)'") }
                body.append("            </uniquenessConstraint>")
            }
            body.append("        </uniquenessConstraints>")
        }
        xml += "    " + element("entity", fields, of: "'\(entity.name)'", closed: body.isEmpty) + "\n"
        guard !body.isEmpty else { return }
        xml += body.joined(separator: "\n") + "\n    </entity>\n"
    }

    private mutating func attribute(_ a: AttributeDescription, of entity: String) -> String {
        let key = "'\(entity).\(a.name)'"
        let fields: [(String, String?)] = [
            ("name", a.name),
            ("optional", a.isOptional ? "YES" : nil),
            ("transient", a.isTransient ? "YES" : nil),
            ("attributeType", a.type.rawValue),
            ("minValueString", a.minValue.map(Self.number)),
            ("maxValueString", a.maxValue.map(Self.number)),
            ("regularExpressionString", a.regularExpression),
            ("defaultValueString", a.defaultValue.flatMap { defaultText($0, type: a.type, of: key) }),
            ("indexed", a.isIndexed ? "YES" : nil),
            ("elementID", a.renamingIdentifier),
            ("valueTransformerName", a.valueTransformerName),
            ("preserveAfterDeletion", a.preservesValueInHistoryOnDeletion ? "YES" : nil),
            ("derived", a.isDerived ? "YES" : nil),
            ("derivationExpression", a.derivationExpression),
        ]
        return element("attribute", fields, of: key)
    }

    private mutating func relationship(_ r: RelationshipDescription, of entity: String) -> String {
        let fields: [(String, String?)] = [
            ("name", r.name),
            ("optional", r.isOptional ? "YES" : nil),
            ("toMany", r.isToMany ? "YES" : nil),
            // Xcode writes maxCount="1" on every to-one; counts mean something on to-many only.
            ("minCount", r.isToMany && r.minCount != 0 ? String(r.minCount) : nil),
            ("maxCount", r.isToMany ? (r.maxCount != 0 ? String(r.maxCount) : nil) : "1"),
            ("deletionRule", r.deleteRule.rawValue),
            ("ordered", r.isToMany && r.isOrdered ? "YES" : nil),
            ("destinationEntity", r.destination),
            ("inverseName", r.inverse),
            ("inverseEntity", r.inverse == nil ? nil : r.destination),
            ("elementID", r.renamingIdentifier),
        ]
        return element("relationship", fields, of: "'\(entity).\(r.name)'")
    }

    /// `<name key="value" …/>` (or `>` when `closed` is false), leaving out `nil` fields and,
    /// with a warning, fields whose text XML cannot hold.
    private mutating func element(_ name: String, _ fields: [(String, String?)], of owner: String, closed: Bool = true) -> String {
        var text = "<\(name)"
        for case let (key, value?) in fields {
            guard Self.isRepresentable(value) else {
                warnings.append(loss("\(key) of \(owner) contains a control character XML cannot hold; left out"))
                continue
            }
            text += " \(key)=\"\(escaped(value))\""
        }
        return text + (closed ? "/>" : ">")
    }

    // MARK: Values

    /// The `defaultValueString` Xcode's loader reads back as `value`, or `nil` (with a warning)
    /// when the format has no way to say it.
    private mutating func defaultText(_ value: Value, type: AttributeType, of key: String) -> String? {
        switch value.coerced(to: type) ?? value {
        case .null:
            warnings.append(loss("the explicit null default of \(key) has no Xcode form; left out (no default)"))
            return nil
        case .data:
            warnings.append(loss("the Binary default of \(key) has no Xcode form (Core Data ignores Binary defaults); left out"))
            return nil
        case .integer(let v): return String(v)
        case .double(let d): return String(d)
        case .decimal(let d): return d.description
        case .string(let s): return s
        case .bool(let b): return b ? "YES" : "NO"
        // Xcode keeps dates as seconds since the 2001-01-01 reference date.
        case .date(let d): return String(d.timeIntervalSinceReferenceDate)
        case .uuid(let u): return u.uuidString
        case .uri(let u): return u.absoluteString
        case .json(let j): return j.jsonText
        }
    }

    /// A bound as Xcode writes it: integral values without a fraction.
    private static func number(_ d: Double) -> String {
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return String(d)
    }

    /// Whether XML 1.0 can hold `text` (it forbids control characters other than tab, line
    /// feed and carriage return, even as character references).
    private static func isRepresentable(_ text: String) -> Bool {
        !text.unicodeScalars.contains { scalar in
            (scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r") || scalar == "\u{FFFE}" || scalar == "\u{FFFF}"
        }
    }

    /// `text` escaped for a double-quoted XML attribute value. Tab, line feed and carriage
    /// return become character references, which XML's attribute normalisation keeps.
    private func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\t": out += "&#9;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private func loss(_ detail: String) -> ModelWarning {
        ModelWarning(name: ModelWarning.xcodeExportLoss, message: detail)
    }
}
