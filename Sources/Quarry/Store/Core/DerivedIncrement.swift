/// Differences a save adds to one object's stored derived attributes, in the store itself, as
/// Core Data's SQL triggers keep a derived `@sum` or `@count`: `total = total + difference`,
/// whatever the row holds now, without the object being loaded or becoming a changed object
/// of the saving context.
///
/// A store applies it in the save's transaction, after the updates and deletes, bumps the
/// row's version, records the row in the save's changes as updated (the derived attributes as
/// its changed properties, with the state now stored) and lists it in
/// ``StoreSaveResult/incremented``. A row that is gone is skipped: the object it summed for no
/// longer exists.
public struct DerivedIncrement: Sendable, Equatable {
    /// The object whose derived attributes change (a permanent ID: never an object the same
    /// save inserts or changes otherwise).
    public var id: ObjectID
    /// Each derived attribute's index and the difference to add: `.integer` for an integer
    /// attribute, `.double` for a double one. Ascending attribute indexes, no zero difference.
    public var differences: [(attribute: Int, by: Value)]
    /// The row as the saving context last loaded it, when it has it: when the store finds the
    /// row still at that version, the state it writes is this one with the differences added
    /// (no read back); otherwise the store reads the row.
    public var base: Snapshot?

    /// Creates the differences of `id`, over `base` when the caller has the row loaded.
    public init(id: ObjectID, differences: [(attribute: Int, by: Value)], base: Snapshot? = nil) {
        self.id = id
        self.differences = differences
        self.base = base
    }

    /// ``base`` with the differences added, at `version`; `nil` without a base or when a sum
    /// does not add (see ``add(_:to:)``).
    public func appliedToBase(version: Int64) -> Snapshot? {
        guard var row = base else { return nil }
        for difference in differences {
            guard difference.attribute < row.values.count,
                  let sum = Self.add(difference.by, to: row.values[difference.attribute]) else { return nil }
            row.values[difference.attribute] = sum
        }
        row.version = version
        return row
    }

    /// The changed properties: the derived attributes.
    public var changed: PropertyMask {
        var mask = PropertyMask()
        for difference in differences { mask.insert(difference.attribute) }
        return mask
    }

    /// `current` with `difference` added, in `difference`'s kind (a missing value counts as
    /// zero); `nil` when an integer sum leaves 64 bits or the kinds do not add.
    public static func add(_ difference: Value, to current: Value) -> Value? {
        switch (difference, current) {
        case (.integer(let d), .integer(let c)):
            let (sum, overflow) = c.addingReportingOverflow(d)
            return overflow ? nil : .integer(sum)
        case (.integer(let d), .null):
            return .integer(d)
        case (.double(let d), .double(let c)):
            return .double(c + d)
        case (.double(let d), .integer(let c)):
            return .double(Double(c) + d)
        case (.double(let d), .null):
            return .double(d)
        default:
            return nil
        }
    }

    /// Whether both name the same object, attributes, differences and base.
    public static func == (a: DerivedIncrement, b: DerivedIncrement) -> Bool {
        a.id == b.id && a.base == b.base && a.differences.elementsEqual(b.differences) { $0.attribute == $1.attribute && $0.by == $1.by }
    }
}
