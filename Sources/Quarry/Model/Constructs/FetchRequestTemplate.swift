/// A named fetch request kept in the model (Xcode's "Fetch Request" templates; Core Data's
/// `fetchRequestTemplate(forName:)`): an entity and a predicate whose `$NAME` variables are
/// given when the template is used.
///
/// ```swift
/// let request = try model.fetchRequest(named: "tickersOfSector", substitutions: ["SECTOR": "Tech"])
/// let tickers = try context.fetch(request)
/// ```
public struct FetchRequestTemplate: Sendable, Hashable {
    /// The template's name (unique in the model).
    public var name: String
    /// The entity fetched.
    public var entity: String
    /// The predicate in the format ``ObjectPredicate/init(format:_:)`` reads, with `$NAME`
    /// variables for the substitutions (empty: every object).
    public var predicate: String

    /// Creates a template.
    public init(name: String, entity: String, predicate: String) {
        self.name = name
        self.entity = entity
        self.predicate = predicate
    }
}
