import Foundation

/// Why a Core Data `Z_MODELCACHE` blob could not be read as a model.
///
/// Every case names what was expected and where (`at` is a path through the archive such as
/// `$top.root.NSEntities[2].NSProperties.name`), so a damaged cache can be reported precisely.
public enum CoreDataModelCacheError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The DEFLATE stream ended before its final block (`consumed` input bytes were read).
    case truncatedDeflate(consumed: Int)
    /// The DEFLATE stream is not valid; `reason` is zlib's message.
    case corruptDeflate(reason: String)
    /// Inflating would produce more than `limit` bytes (an absurd expansion is refused).
    case inflatedTooLarge(limit: Int)
    /// The inflated bytes are not a property list; `reason` is Foundation's message.
    case notAPropertyList(reason: String)
    /// The property list is not an NSKeyedArchiver archive: `missing` names the absent key.
    case notAKeyedArchive(missing: String)
    /// A UID points past the end of `$objects`.
    case uidOutOfRange(uid: Int, objectCount: Int, at: String)
    /// A value of the wrong kind: `expected` says what was needed, `found` what was there.
    case wrongType(expected: String, found: String, at: String)
    /// A required key is absent from an archived object.
    case missingKey(String, at: String)
    /// An archived collection contains itself.
    case cycle(uid: Int, at: String)
    /// Collections are nested deeper than `limit`.
    case tooDeep(limit: Int, at: String)
    /// Decoding would produce more than `limit` values (shared elements repeated too often).
    case tooManyValues(limit: Int, at: String)
    /// The archived object is of class `found` where `expected` was needed.
    case unexpectedClass(expected: String, found: String, at: String)
    /// The decoded model does not validate; `reason` is the ``ModelError``'s message.
    case invalidModel(reason: String)

    /// What is wrong and where, in one line.
    public var description: String {
        switch self {
        case .truncatedDeflate(let consumed):
            return "model cache: DEFLATE data ends early (after \(consumed) bytes, before the final block)"
        case .corruptDeflate(let reason):
            return "model cache: corrupt DEFLATE data (\(reason))"
        case .inflatedTooLarge(let limit):
            return "model cache: inflates to more than \(limit) bytes; refused"
        case .notAPropertyList(let reason):
            return "model cache: not a property list (\(reason))"
        case .notAKeyedArchive(let missing):
            return "model cache: not a keyed archive (no \(missing))"
        case .uidOutOfRange(let uid, let count, let at):
            return "model cache: at \(at): UID \(uid) is past the \(count) archived objects"
        case .wrongType(let expected, let found, let at):
            return "model cache: at \(at): expected \(expected), found \(found)"
        case .missingKey(let key, let at):
            return "model cache: at \(at): missing key \(key)"
        case .cycle(let uid, let at):
            return "model cache: at \(at): object \(uid) contains itself"
        case .tooDeep(let limit, let at):
            return "model cache: at \(at): nested deeper than \(limit) levels"
        case .tooManyValues(let limit, let at):
            return "model cache: at \(at): more than \(limit) values; refused"
        case .unexpectedClass(let expected, let found, let at):
            return "model cache: at \(at): expected an archived \(expected), found \(found)"
        case .invalidModel(let reason):
            return "model cache: the recovered model is not valid: \(reason)"
        }
    }
}
