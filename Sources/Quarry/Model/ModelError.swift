/// Why a model could not be built or loaded. Every case names what is at fault.
public enum ModelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Two entities share a name.
    case duplicateEntity(String)
    /// An entity declares a property name twice (or re-declares an inherited one).
    case duplicateProperty(entity: String, property: String)
    /// An entity's parent is not in the model.
    case unknownParent(entity: String, parent: String)
    /// Entity inheritance loops back on itself.
    case inheritanceCycle(entity: String)
    /// A relationship has no destination entity.
    case missingDestination(entity: String, relationship: String)
    /// A relationship's destination is not in the model.
    case unknownDestination(entity: String, relationship: String, destination: String)
    /// A relationship's inverse is missing or does not point back.
    case inverseMismatch(entity: String, relationship: String, reason: String)
    /// An index or constraint names an attribute the entity does not have.
    case unknownAttribute(entity: String, attribute: String, usedIn: String)
    /// A default value does not fit its attribute's type.
    case invalidDefault(entity: String, attribute: String, value: String)
    /// A name is empty or cannot be used as an identifier.
    case invalidName(String)
    /// An attribute of type ``AttributeType/undefined`` is not transient (Core Data stores no
    /// Undefined attribute, so it must be transient).
    case undefinedNotTransient(entity: String, attribute: String)
    /// A transformable attribute names a value transformer nobody registered (see
    /// ``AttributeTransformers/register(_:named:)``). Loaders no longer refuse such a model (a
    /// ``ModelWarning/unregisteredTransformer`` warning says so); kept for callers that do.
    case unknownValueTransformer(entity: String, attribute: String, name: String)
    /// A model file could not be read or parsed; `line`/`column` are 1-based, 0 when unknown.
    case malformedFile(path: String, line: Int, column: Int, reason: String)
    /// A model file uses a feature Quarry does not support.
    case unsupported(path: String, line: Int, feature: String)
    /// A model file or folder was not found.
    case fileNotFound(path: String)
    /// No model was found in `folder`: `tried` lists the file names looked for, in order (for
    /// a named model `Name.json`, `Name.xcdatamodeld`, `Name.xcdatamodel`, `Name.momd`,
    /// `Name.mom`).
    case modelNotFound(folder: String, tried: [String])
    /// Two model files merged into one (``PersistentStack/mergedModel(in:)``) both define
    /// `entity`: the first file that defines it and the second.
    case duplicateEntityInFiles(entity: String, first: String, second: String)
    /// A derived attribute's expression does not parse, or reads what it cannot (an unknown
    /// key, a to-many without a collection operator, a value its type cannot hold); `reason`
    /// names the column of the expression at fault.
    case invalidDerivation(entity: String, attribute: String, expression: String, reason: String)
    /// A fetched property's destination is not in the model, or its predicate does not parse;
    /// `reason` names the column of the predicate at fault.
    case invalidFetchedProperty(entity: String, property: String, reason: String)
    /// A composite attribute's elements cannot be stored (none, a duplicate, a transient, derived
    /// or Undefined one).
    case invalidComposite(entity: String, attribute: String, reason: String)
    /// A fetch request template names an entity the model lacks, or its predicate does not parse.
    case invalidFetchRequestTemplate(name: String, reason: String)
    /// A configuration names an entity the model lacks, or two configurations share a name.
    case invalidConfiguration(name: String, reason: String)

    public var description: String {
        switch self {
        case .duplicateEntity(let e): return "model has two entities named '\(e)'"
        case .duplicateProperty(let e, let p): return "entity '\(e)' declares property '\(p)' more than once"
        case .unknownParent(let e, let p): return "entity '\(e)' has parent '\(p)', which is not in the model"
        case .inheritanceCycle(let e): return "entity '\(e)' is its own ancestor"
        case .missingDestination(let e, let r): return "relationship '\(e).\(r)' has no destination entity"
        case .unknownDestination(let e, let r, let d): return "relationship '\(e).\(r)' points to '\(d)', which is not in the model"
        case .inverseMismatch(let e, let r, let why): return "relationship '\(e).\(r)': \(why)"
        case .unknownAttribute(let e, let a, let used): return "\(used) of entity '\(e)' names '\(a)', which is not an attribute of '\(e)'"
        case .invalidDefault(let e, let a, let v): return "default value \(v) does not fit attribute '\(e).\(a)'"
        case .invalidName(let n): return "'\(n)' is not a valid name"
        case .unknownValueTransformer(let e, let a, let n):
            return "attribute '\(e).\(a)' names value transformer '\(n)', which is not registered (register it with AttributeTransformers.register(_:named:) before loading the model)"
        case .undefinedNotTransient(let e, let a):
            return "attribute '\(e).\(a)' has type Undefined but is not transient (an Undefined attribute is never stored, so it must be transient)"
        case .malformedFile(let path, let line, let column, let reason):
            let at = line > 0 ? ":\(line)" + (column > 0 ? ":\(column)" : "") : ""
            return "\(path)\(at): \(reason)"
        case .unsupported(let path, let line, let feature):
            return "\(path)\(line > 0 ? ":\(line)" : ""): unsupported: \(feature)"
        case .fileNotFound(let path): return "\(path): no such model file"
        case .modelNotFound(let folder, let tried):
            return "\(folder): no model found (looked for \(tried.joined(separator: ", ")))"
        case .duplicateEntityInFiles(let e, let first, let second):
            return "entity '\(e)' is defined by both \(first) and \(second); a merged model needs each entity once"
        case .invalidDerivation(let e, let a, let expression, let why):
            return "derived attribute '\(e).\(a)': derivation expression '\(expression)': \(why)"
        case .invalidFetchedProperty(let e, let p, let why): return "fetched property '\(e).\(p)': \(why)"
        case .invalidComposite(let e, let a, let why): return "composite attribute '\(e).\(a)': \(why)"
        case .invalidFetchRequestTemplate(let n, let why): return "fetch request template '\(n)': \(why)"
        case .invalidConfiguration(let n, let why): return "configuration '\(n)': \(why)"
        }
    }
}
