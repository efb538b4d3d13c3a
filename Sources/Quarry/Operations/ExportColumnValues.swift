/// The columns of an export resolved against the entity: what ``CSVFormatter`` and
/// ``JSONFormatter`` read from each object.
struct ResolvedExportColumns: Sendable {
    /// What one column holds for one object.
    enum Cell {
        /// One value (an attribute, through to-ones; `.null` when a to-one on the way is empty).
        case single(Value)
        /// The values across a to-many, in order.
        case many([Value])
        /// How many destinations a to-many holds.
        case count(Int)
    }

    struct Column: @unchecked Sendable {
        // KeyPathPlan is an immutable value of Sendable parts (entity descriptions, indices).
        let header: String
        let plan: KeyPathPlan
        /// Set when the column is a plain attribute: read straight from the object's values.
        let attributeIndex: Int?
        let counts: Bool
        let toManyStyle: ExportColumn.ToManyStyle
    }

    let columns: [Column]
    /// The relationship key paths the columns follow.
    let prefetchKeyPaths: [String]
    /// The columns' key paths when each has one value per object (the store can read them
    /// without objects: see ``ValueRowFormatter``); `nil` when a column crosses a to-many.
    let valueKeyPaths: [String]?
    /// Per column, the attribute read straight from an object's values (plain attributes).
    private let attributeIndices: [Int?]

    /// Resolves `columns` (every stored attribute, in the entity's order (by name), when `nil`) on `entity`.
    init(_ columns: [ExportColumn]?, entity: EntityDescription, model: ManagedObjectModel) throws {
        let chosen = columns ?? entity.attributes.filter { !$0.isTransient }.map { ExportColumn($0.name) }
        var resolved: [Column] = []
        var prefetch: [String] = []
        for column in chosen {
            let plan: KeyPathPlan
            do {
                plan = try KeyPathPlan(column.keyPath, entity: entity, model: model)
            } catch {
                throw ExportError.invalidColumn(entity: entity.name, keyPath: column.keyPath, reason: "\(error)")
            }
            if case .aggregate(let op, _) = plan.terminal {
                throw ExportError.invalidColumn(entity: entity.name, keyPath: column.keyPath,
                                                reason: "\(op.rawValue) is not exported (a column holds a to-many's values or @count)")
            }
            var attributeIndex: Int?
            if plan.steps.isEmpty, case .attribute(let a) = plan.terminal { attributeIndex = a }
            let endsOnToMany: Bool = {
                if case .relationship(-1) = plan.terminal { return plan.crossesToMany }
                return false
            }()
            let counts = plan.endsWithCount || endsOnToMany || (plan.crossesToMany && column.toMany == .count)
            resolved.append(Column(header: column.header, plan: plan, attributeIndex: attributeIndex, counts: counts, toManyStyle: column.toMany))
            // The relationship part of the path: everything but a final attribute or @count.
            var keys = column.keyPath.split(separator: ".").map(String.init)
            if keys.last == "@count" { keys.removeLast() }
            if case .attribute = plan.terminal { keys.removeLast() }
            if !keys.isEmpty {
                let path = keys.joined(separator: ".")
                if !prefetch.contains(path) { prefetch.append(path) }
            }
        }
        self.columns = resolved
        self.prefetchKeyPaths = prefetch
        self.attributeIndices = resolved.map(\.attributeIndex)
        let singleValued = resolved.allSatisfy { !$0.plan.crossesToMany || $0.plan.endsWithCount }
        self.valueKeyPaths = singleValued ? chosen.map(\.keyPath) : nil
    }

    /// What column `index` holds for `object`.
    @inline(__always)
    /// - Throws: when a to-many on a column's key path cannot be read from the store.
    func cell(_ index: Int, of object: ManagedObject) throws -> Cell {
        if let a = attributeIndices[index] { return .single(object.primitiveValue(at: a)) }
        let column = columns[index]
        let subject = ObjectSubject(object: object)
        if column.plan.endsWithCount { return .count(Int(try column.plan.values(of: subject).first?.integerValue ?? 0)) }
        if column.plan.crossesToMany {
            let values = try column.plan.values(of: subject)
            return column.counts ? .count(values.count) : .many(values)
        }
        return .single(column.plan.singleValue(of: subject))
    }
}

extension Value {
    fileprivate var integerValue: Int64? {
        if case .integer(let v) = self { return v }
        return nil
    }
}
