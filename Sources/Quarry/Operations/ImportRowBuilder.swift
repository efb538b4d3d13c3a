/// Turns one record into attribute values and relationship keys, and says what is wrong with it.
///
/// Both passes use it: validation builds every row and keeps only the problems; the insert pass
/// builds each row again and writes it. Buffers are reused from row to row.
struct ImportRowBuilder {
    private let entity: EntityDescription
    private let bytes: UnsafeRawBufferPointer
    /// The row's attribute values (defaults where no column gave one).
    private(set) var values: [Value]
    /// The attributes a column gave a value in this row.
    private(set) var assigned: [Int] = []
    /// Where each attribute's field starts in this row (for error positions).
    private var positions: [ImportPosition?]
    /// The relationship columns of this row: relationship, how to find the destination, key value.
    private(set) var relationshipKeys: [(relationship: Int, destination: EntityDescription, keyIndex: Int, value: Value, position: ImportPosition)] = []
    private var scratch: [UInt8] = []

    init(entity: EntityDescription, bytes: UnsafeRawBufferPointer) {
        self.entity = entity
        self.bytes = bytes
        self.values = entity.defaultValues
        self.positions = Array(repeating: nil, count: entity.attributes.count)
    }

    /// Builds `record` (row number `row`, 1-based); returns its first problem and where, or
    /// `nil` when the row can be inserted as it is.
    mutating func build(_ record: ImportRecord, row: Int, plan: ImportColumnPlan, resolver: ImportDestinationResolver) throws -> (position: ImportPosition, message: String)? {
        for a in assigned { values[a] = entity.defaultValues[a]; positions[a] = nil }
        assigned.removeAll(keepingCapacity: true)
        relationshipKeys.removeAll(keepingCapacity: true)

        for cell in record.cells {
            switch plan.targets[cell.column] {
            case .unknown(let message):
                return (cell.position, message)
            case .attribute(let a):
                do {
                    values[a] = try convert(cell.value, as: entity.attributeTypes[a])
                } catch {
                    return (cell.position, "'\(entity.attributes[a].name)': \(error.message)")
                }
                assigned.append(a)
                positions[a] = cell.position
            case .relationship(let r, let destination, let k):
                let key = destination.attributes[k]
                let value: Value
                do { value = try convert(cell.value, as: key.type) } catch {
                    return (cell.position, "'\(entity.relationships[r].name).\(key.name)': \(error.message)")
                }
                relationshipKeys.append((r, destination, k, value, cell.position))
            }
        }

        for a in entity.validatedAttributeIndices {
            if let reason = entity.attributes[a].ruleViolation(of: values[a]) {
                return (positions[a] ?? record.position, "'\(entity.attributes[a].name)' \(reason)")
            }
        }
        for r in entity.validatedRelationshipIndices {
            let relationship = entity.relationships[r]
            guard !relationship.isToMany, !relationship.isOptional else { continue }
            let key = relationshipKeys.first { $0.relationship == r }
            if key == nil || key!.value.isNull {
                return (key?.position ?? record.position, "relationship '\(relationship.name)' is required")
            }
        }
        for key in relationshipKeys where !key.value.isNull {
            if let message = try resolver.problem(relationship: key.relationship, name: entity.relationships[key.relationship].name,
                                                  destination: key.destination, keyIndex: key.keyIndex, value: key.value, row: row) {
                return (key.position, message)
            }
        }
        return nil
    }

    /// A cell's value for an attribute of `type`. An empty CSV field is `nil`, except that a
    /// quoted empty field (`""`) is the empty string for a string attribute.
    private mutating func convert(_ cell: ImportCellValue, as type: AttributeType) throws(ImportFieldProblem) -> Value {
        guard case .text(let start, let end, let quoted, let doubled) = cell else {
            return try ImportValueParser.value(json: cell, bytes: bytes, as: type)
        }
        if start == end { return quoted && type == .string ? .string("") : .null }
        guard doubled else { return try ImportValueParser.value(text: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: type) }
        scratch = ImportCSVReader.unescaped(bytes, start, end, true)
        return try scratch.withUnsafeBytes { text in Result { () throws(ImportFieldProblem) in try ImportValueParser.value(text: text, as: type) } }.get()
    }
}
