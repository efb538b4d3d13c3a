/// `SUBQUERY(collection, $variable, predicate)` followed by `.@count` (or `.@sum.key`,
/// `.@avg.key`, `.@min.key`, `.@max.key`): one value computed from the elements of a to-many
/// that pass a predicate of their own, compared like any other operand.
///
/// ```swift
/// // Sectors with more than three tickers above 100:
/// let p = try ObjectPredicate(format: "SUBQUERY(tickers, $t, $t.price > 100).@count > 3")
/// ```
///
/// Inside the subquery, key paths start with the variable (`$t.price`, `$t.sector.name`,
/// `ANY $t.tags.label == 'x'`, a nested `SUBQUERY($t.tags, $g, …)`); ``predicate`` holds them
/// relative to the element (`price`), and ``ObjectPredicate/description`` writes the variable
/// back. Other `$NAME` variables inside are constants, replaced by
/// ``ObjectPredicate/substituting(_:)``. Both back ends evaluate it alike: SQL as a correlated
/// scalar subquery, memory by filtering the elements.
public struct PredicateSubquery: Sendable, Hashable {
    /// What the subquery computes from the elements that pass.
    public enum Operation: Sendable, Hashable {
        /// How many elements pass (`.@count`).
        case count
        /// A collection operator over an attribute of the elements that pass (`.@sum.price`).
        case aggregate(CollectionOperator, attribute: String)
    }

    /// The key path of the to-many whose elements are filtered (`tickers`, `sector.tickers`),
    /// from the evaluated object (or, in a nested subquery, from the enclosing element).
    public var collection: String
    /// The name of the variable that stands for an element (`t` for `$t`).
    public var variable: String
    /// The test each element must pass, with key paths relative to the element.
    public var predicate: ObjectPredicate
    /// What is computed from the passing elements.
    public var operation: Operation

    /// Creates a subquery; `predicate`'s key paths are relative to the element (`price`, not `$t.price`).
    public init(_ collection: String, variable: String, where predicate: ObjectPredicate, _ operation: Operation = .count) {
        self.collection = collection
        self.variable = variable
        self.predicate = predicate
        self.operation = operation
    }
}
