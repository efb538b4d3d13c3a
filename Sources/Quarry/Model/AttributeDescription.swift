/// One attribute of an entity: its name, type, optionality, default and validation rules.
///
/// Validation (`minValue`, `maxValue`, `regularExpression`) follows Core Data: for numbers the
/// bounds apply to the value, for strings and binary data to the length (in characters or bytes),
/// for dates to the time interval since the reference date.
public struct AttributeDescription: Sendable, Hashable {
    /// The attribute's name (its key).
    public var name: String
    /// The storage type.
    public var type: AttributeType
    /// Whether `nil` is allowed at save.
    public var isOptional: Bool
    /// Transient attributes live in memory only: never stored, never part of the version hash's schema.
    public var isTransient: Bool
    /// The value a newly inserted object starts with (`nil`: no default).
    public var defaultValue: Value?
    /// The smallest allowed value (numbers, dates) or length (strings, binary).
    public var minValue: Double?
    /// The largest allowed value (numbers, dates) or length (strings, binary).
    public var maxValue: Double?
    /// A regular expression the whole string must match.
    public var regularExpression: String?
    /// Whether a single-column index is created for this attribute.
    public var isIndexed: Bool
    /// The attribute's name in an earlier model version, when it was renamed (Core Data's
    /// `renamingIdentifier`): migration carries its values over. Not part of the version hash.
    public var renamingIdentifier: String?
    /// For a `Transformable` attribute: the name of the ``AttributeTransformer`` that turns its
    /// value into the bytes stored (``PropertyListTransformer`` when `nil`). Must be registered
    /// with ``AttributeTransformers`` before the model loads.
    public var valueTransformerName: String?
    /// Whether persistent history keeps this attribute's value when its object is deleted (the
    /// delete's tombstone, ``HistoryChange/tombstone``; Core Data's name). Part of the version
    /// hash only when set.
    public var preservesValueInHistoryOnDeletion: Bool
    /// For a derived attribute (Core Data's `NSDerivedAttributeDescription`): the expression its
    /// value is computed from at every save that affects it (``DerivationExpression`` gives the
    /// forms), as the model file wrote it. A derived attribute is stored like any other and is
    /// read-only to callers. `nil` for an ordinary attribute.
    public var derivationExpression: String?

    /// Whether the attribute is derived (``derivationExpression`` is set).
    public var isDerived: Bool { derivationExpression != nil }

    /// Creates an attribute description.
    public init(
        name: String, type: AttributeType, isOptional: Bool = true, isTransient: Bool = false,
        defaultValue: Value? = nil, minValue: Double? = nil, maxValue: Double? = nil,
        regularExpression: String? = nil, isIndexed: Bool = false, renamingIdentifier: String? = nil,
        valueTransformerName: String? = nil, preservesValueInHistoryOnDeletion: Bool = false,
        derivationExpression: String? = nil
    ) {
        self.derivationExpression = derivationExpression
        self.preservesValueInHistoryOnDeletion = preservesValueInHistoryOnDeletion
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.defaultValue = defaultValue
        self.minValue = minValue
        self.maxValue = maxValue
        self.regularExpression = regularExpression
        self.isIndexed = isIndexed
        self.renamingIdentifier = renamingIdentifier
        self.valueTransformerName = valueTransformerName
    }
}
