/// A composite attribute (Xcode 15's `Composite` type, Core Data's
/// `NSCompositeAttributeDescription`): a group of element attributes read and written as one
/// dictionary value, stored flattened.
///
/// The resolved entity holds one stored attribute per element, named `<composite>.<element>`
/// (`home.city`), so predicates and sort keys reach an element by that name, as Core Data's
/// namespaced key paths do; ``ManagedObject/value(forKey:)`` with the composite's own name
/// reads a ``JSONValue/object(_:)`` of the elements, and ``ManagedObject/setValue(_:forKey:)``
/// writes one.
///
/// ```swift
/// let home = CompositeAttributeDescription(name: "home", elements: [
///     AttributeDescription(name: "city", type: .string),
///     AttributeDescription(name: "postcode", type: .string),
/// ])
/// ```
public struct CompositeAttributeDescription: Sendable, Hashable {
    /// The attribute's name (unique among the entity's properties).
    public var name: String
    /// The name of the composite type Xcode declares at model level (`<composite name=…>`),
    /// which the attribute's `composite=` names; `nil` when the model format has none.
    public var typeName: String?
    /// Whether `nil` (every element `nil`) is allowed; a required composite requires each
    /// element marked required.
    public var isOptional: Bool
    /// The elements, each an ordinary attribute (no element is transient, derived or Undefined).
    public var elements: [AttributeDescription]

    /// Creates a composite attribute.
    public init(name: String, typeName: String? = nil, isOptional: Bool = true, elements: [AttributeDescription]) {
        self.name = name
        self.typeName = typeName
        self.isOptional = isOptional
        self.elements = elements
    }

    /// The flattened name of element `element`: `<composite>.<element>`.
    public func storedName(of element: String) -> String { name + "." + element }

    /// The stored attributes of the composite: each element named `<composite>.<element>`,
    /// optional when the composite is.
    public var storedAttributes: [AttributeDescription] {
        elements.map { element in
            var stored = element
            stored.name = storedName(of: element.name)
            stored.isOptional = element.isOptional || isOptional
            return stored
        }
    }

    /// The composite with its elements sorted by name.
    public var canonical: CompositeAttributeDescription {
        var copy = self
        copy.elements.sort { $0.name < $1.name }
        return copy
    }
}
