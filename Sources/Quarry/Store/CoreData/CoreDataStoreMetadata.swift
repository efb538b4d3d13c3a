import Foundation
import GRDB

/// What a Core Data store's `Z_METADATA` row says about it: its identifier and the version hash
/// of each entity of the model that wrote it (`NSStoreModelVersionHashes`).
struct CoreDataStoreMetadata: Sendable {
    /// `NSStoreUUID`, else the row's `Z_UUID`.
    var storeIdentifier: UUID?
    /// `NSStoreModelVersionHashes`: entity name → 32-byte hash (empty when unreadable).
    var entityVersionHashes: [String: Data] = [:]
    /// `NSStoreModelVersionIdentifiers`, when present.
    var versionIdentifiers: [String] = []

    /// Reads the first `Z_METADATA` row. A damaged `Z_PLIST` (not a property list, a binary
    /// property list Foundation could not survive, not a dictionary) is skipped with a warning.
    static func read(_ db: Database, warnings: inout [String]) -> CoreDataStoreMetadata {
        var metadata = CoreDataStoreMetadata()
        let row: Row?
        do {
            row = try Row.fetchOne(db, sql: "SELECT * FROM main.Z_METADATA ORDER BY Z_VERSION LIMIT 1")
        } catch {
            warnings.append("Z_METADATA: could not be read (\(error)); the store's identifier and version hashes are unknown")
            return metadata
        }
        guard let row else {
            warnings.append("Z_METADATA: no row; the store's identifier and version hashes are unknown")
            return metadata
        }
        if let text = String.fromDatabaseValue(row["Z_UUID"] as DatabaseValue) { metadata.storeIdentifier = UUID(uuidString: text) }
        guard let plist = Data.fromDatabaseValue(row["Z_PLIST"] as DatabaseValue) else {
            warnings.append("Z_METADATA: no Z_PLIST; the store's model version hashes are unknown")
            return metadata
        }
        do {
            try metadata.parse(plist)
        } catch {
            warnings.append("Z_METADATA: Z_PLIST skipped (\(error)); the store's model version hashes are unknown")
        }
        return metadata
    }

    /// Fills the fields from `Z_PLIST`'s bytes.
    mutating func parse(_ data: Data) throws {
        try BinaryPropertyListPrecheck.check(data)
        let plist: Any
        do {
            plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw CoreDataModelCacheError.notAPropertyList(reason: (error as NSError).localizedDescription)
        }
        guard let dictionary = plist as? [String: Any] else {
            throw CoreDataModelCacheError.wrongType(expected: "a dictionary", found: "\(type(of: plist))", at: "Z_PLIST root")
        }
        if let text = dictionary["NSStoreUUID"] as? String, let uuid = UUID(uuidString: text) { storeIdentifier = uuid }
        if let hashes = dictionary["NSStoreModelVersionHashes"] as? [String: Any] {
            for (name, value) in hashes {
                if let hash = value as? Data { entityVersionHashes[name] = hash }
            }
        }
        if let identifiers = dictionary["NSStoreModelVersionIdentifiers"] as? [Any] {
            versionIdentifiers = identifiers.compactMap { $0 as? String }
        }
    }
}
