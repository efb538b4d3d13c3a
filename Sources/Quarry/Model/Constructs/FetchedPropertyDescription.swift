/// A fetched property of an entity (Core Data's `NSFetchedPropertyDescription`): a fetch of
/// `destination` objects matching `predicate`, run lazily when the property is first read on
/// an object and kept until the object is refreshed.
///
/// The predicate may name the object the property is read on as `$FETCH_SOURCE` (a to-one
/// compared with it, `author == $FETCH_SOURCE`) or through a key path of it
/// (`genre == $FETCH_SOURCE.genre`), and the property's name as `$FETCHED_PROPERTY`.
///
/// ```swift
/// let fetched = FetchedPropertyDescription(name: "sameGenre", destination: "Book",
///                                          predicate: "genre == $FETCH_SOURCE.genre")
/// let books = try book.fetchedProperty("sameGenre")
/// ```
public struct FetchedPropertyDescription: Sendable, Hashable {
    /// The property's name (its key; unique among the entity's properties).
    public var name: String
    /// The name of the entity fetched.
    public var destination: String
    /// The predicate in the format ``ObjectPredicate/init(format:_:)`` reads (empty: every
    /// object of the destination).
    public var predicate: String
    /// Whether Xcode marked the property optional (kept for round trips; a fetched property is
    /// never validated).
    public var isOptional: Bool

    /// Creates a fetched property description.
    public init(name: String, destination: String, predicate: String, isOptional: Bool = true) {
        self.name = name
        self.destination = destination
        self.predicate = predicate
        self.isOptional = isOptional
    }
}
