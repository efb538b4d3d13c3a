/// General engine errors: misuse of the API, unknown names, values that do not fit.
///
/// Errors from more specific areas have their own types: ``ModelError`` (models and loaders),
/// ``StoreError`` (files and SQLite), ``ObjectValidationError`` (save-time validation) and
/// ``MergeConflictError`` (optimistic-locking conflicts under the error policy).
public enum QuarryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No entity of that name in the model.
    case unknownEntity(String)
    /// The entity has no property of that name.
    case unknownKey(entity: String, key: String)
    /// A value does not fit the attribute it was given to.
    case typeMismatch(entity: String, key: String, expected: String, got: String)
    /// A value could not be interpreted.
    case invalidValue(String)
    /// An abstract entity cannot be instantiated.
    case abstractEntity(String)
    /// The object belongs to another context (or to none).
    case wrongContext(String)
    /// The object no longer exists in the store.
    case objectNotFound(String)
    /// A save or fetch was refused, with the reason (for example a temporary context's save).
    case refused(String)
    /// The object ID or its URI form is not valid for this store.
    case invalidObjectID(String)
    /// A `Transformable` value cannot be written: the attribute's value transformer `name` is
    /// not registered, or only reads (see ``ModelWarning/unregisteredTransformer``).
    case valueTransformerUnavailable(entity: String, attribute: String, name: String, reason: String)
    /// A save stopped because these objects (described) were still changing after
    /// ``ObjectContext/willSaveRoundLimit`` rounds of ``ManagedObject/willSave()``; nothing was written.
    case willSaveKeptChanging(objects: [String])
    /// A derived attribute was set: its value is computed by each save from its derivation
    /// expression (``AttributeDescription/derivationExpression``), never written by callers.
    case readOnlyDerivedAttribute(entity: String, attribute: String, expression: String)

    public var description: String {
        switch self {
        case .unknownEntity(let e): return "no entity named '\(e)' in the model"
        case .unknownKey(let e, let k): return "entity '\(e)' has no property '\(k)'"
        case .typeMismatch(let e, let k, let expected, let got): return "'\(e).\(k)' expects \(expected), got \(got)"
        case .invalidValue(let why): return "invalid value: \(why)"
        case .abstractEntity(let e): return "entity '\(e)' is abstract and cannot be instantiated"
        case .wrongContext(let why): return why
        case .objectNotFound(let id): return "object \(id) no longer exists in the store"
        case .refused(let why): return why
        case .invalidObjectID(let s): return "'\(s)' is not an object ID of this store"
        case .valueTransformerUnavailable(let e, let a, _, let reason): return "'\(e).\(a)': \(reason)"
        case .readOnlyDerivedAttribute(let e, let a, let expression):
            return "'\(e).\(a)' is a derived attribute (\(expression)): saves compute it, it cannot be set"
        case .willSaveKeptChanging(let objects):
            return "save stopped: willSave() kept changing \(objects.count) object(s) after \(ObjectContext.willSaveRoundLimit) rounds (compare before setting a value in willSave): \(objects.prefix(5).joined(separator: ", "))"
        }
    }
}
