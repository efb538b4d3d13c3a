import Foundation

/// Recovers the model of an Apple Core Data SQLite store from its `Z_MODELCACHE` table.
///
/// Core Data keeps a copy of the store's `NSManagedObjectModel` in the single row of
/// `Z_MODELCACHE`: raw DEFLATE (no zlib header) around a binary property list written by
/// `NSKeyedArchiver`. These functions inflate it (through the system zlib, with a bound on the
/// output), read the keyed archive and rebuild the entities, attributes and relationships as
/// a ``ManagedObjectModel``. Shapes Quarry does not model (fetched properties, an unknown
/// attribute type code, an unknown delete rule) become ``ModelWarning``s on the model rather
/// than failures.
///
/// ```swift
/// let blob: Data = … // SELECT Z_CONTENT FROM Z_MODELCACHE
/// let model = try CoreDataModelCache.model(fromCompressedArchive: blob)
/// ```
public enum CoreDataModelCache {
    /// The largest inflated archive accepted (64 MiB); real caches are tens of kilobytes.
    public static let defaultInflatedLimit = RawInflate.defaultLimit

    /// The model in a `Z_MODELCACHE` blob (raw DEFLATE around a keyed archive).
    /// - Parameters:
    ///   - data: The blob, as read from the table.
    ///   - inflatedLimit: the most bytes the blob may inflate to.
    /// - Throws: ``CoreDataModelCacheError`` naming what is wrong: truncated or corrupt DEFLATE
    ///   data, too large an expansion, or any error of ``model(fromArchive:)``.
    public static func model(fromCompressedArchive data: Data, inflatedLimit: Int = defaultInflatedLimit) throws(CoreDataModelCacheError) -> ManagedObjectModel {
        try model(fromArchive: RawInflate.inflate(data, limit: inflatedLimit))
    }

    /// The model in an uncompressed keyed archive of an `NSManagedObjectModel`.
    /// - Throws: ``CoreDataModelCacheError``: not a property list, not a keyed archive, a
    ///   malformed archive (the path at fault named), or a model that does not validate.
    public static func model(fromArchive data: Data) throws(CoreDataModelCacheError) -> ManagedObjectModel {
        let (definition, warnings) = try definition(fromArchive: data)
        do {
            return try ManagedObjectModel(definition, warnings: warnings)
        } catch {
            throw .invalidModel(reason: String(describing: error))
        }
    }

    /// The model definition in an uncompressed keyed archive, with warnings for what was
    /// skipped, before validation (for callers that adjust it first).
    /// - Throws: as ``model(fromArchive:)``, except for validation.
    public static func definition(fromArchive data: Data) throws(CoreDataModelCacheError) -> (ModelDefinition, [ModelWarning]) {
        let archive = try KeyedArchive(propertyList: data)
        var decoder = CoreDataModelDecoder(archive: archive)
        return try decoder.decode()
    }
}
