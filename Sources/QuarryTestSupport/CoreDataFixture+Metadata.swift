import Foundation
import GRDB

extension CoreDataFixture {
    /// `Z_PRIMARYKEY`, `Z_METADATA` and (unless absent) `Z_MODELCACHE`, as Core Data declares them.
    static func metadataSchemaSQL(modelCache: ModelCache) -> [String] {
        var sql = [
            "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
            "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
        ]
        if case .absent = modelCache {} else { sql.append("CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)") }
        return sql
    }

    /// The rows of `Z_PRIMARYKEY` (keys are allocated per table, so only a root entity's row
    /// carries `Z_MAX`), `Z_METADATA` and `Z_MODELCACHE`.
    func metadataStatements(_ layout: CoreDataFixtureLayout, maxima: [String: Int64]) throws(CoreDataFixtureError) -> [Statement] {
        var statements: [Statement] = []
        for name in layout.order {
            let entity = layout.entities[name]!
            statements.append(Statement(sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, ?)", arguments: [
                layout.numbers[name]!.databaseValue, name.databaseValue,
                (entity.parent.flatMap { layout.numbers[$0] } ?? 0).databaseValue,
                (entity.parent == nil ? maxima[name, default: 0] : 0).databaseValue,
            ]))
        }
        let plist: Data
        do {
            plist = try PropertyListSerialization.data(fromPropertyList: metadataPropertyList(layout), format: .binary, options: 0)
        } catch {
            throw .notSerialisable(what: "Z_METADATA.Z_PLIST", reason: String(describing: error))
        }
        statements.append(Statement(sql: "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)",
                                    arguments: [storeUUID.uuidString.databaseValue, plist.databaseValue]))
        switch modelCache {
        case .absent: break
        case .raw(let data):
            statements.append(Statement(sql: "INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)", arguments: [data.databaseValue]))
        case .archived:
            let archive: Data
            do { archive = try ModelArchiveFixture.archive(modelArchiveEntities) } catch {
                throw .notSerialisable(what: "Z_MODELCACHE.Z_CONTENT", reason: String(describing: error))
            }
            statements.append(Statement(sql: "INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)",
                                        arguments: [KeyedArchiveFixture.deflate(archive).databaseValue]))
        }
        return statements
    }

    /// The metadata dictionary Core Data keeps in `Z_METADATA.Z_PLIST` (no sets: a property list
    /// has none).
    func metadataPropertyList(_ layout: CoreDataFixtureLayout) -> [String: Any] {
        var hashes: [String: Data] = [:]
        for entity in entities { hashes[entity.name] = Self.versionHash(of: entity) }
        return [
            "NSStoreType": "SQLite",
            "NSStoreUUID": storeUUID.uuidString,
            "NSStoreModelVersionHashes": hashes,
            "NSStoreModelVersionHashesVersion": 3,
            "NSStoreModelVersionIdentifiers": [""],
            "NSPersistenceFrameworkVersion": 1341,
            "_NSAutoVacuumLevel": "2",
        ]
    }

    /// 32 stable bytes standing for an entity's version hash (Core Data's is a SHA-256 of the
    /// entity's shape; any stable bytes do for a reader): FNV-1a over the entity's name,
    /// parent and properties, four lanes of 64 bits.
    static func versionHash(of entity: Entity) -> Data {
        let text = ([entity.name, entity.parent ?? ""] + entity.attributes.map { "\($0.name):\($0.type.code)" }
            + entity.relationships.map { "\($0.name)>\($0.destination)\($0.isToMany ? "*" : "1")" }).joined(separator: "|")
        var bytes = Data()
        for lane in UInt64(0)..<4 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ lane
            for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            withUnsafeBytes(of: hash.bigEndian) { bytes.append(contentsOf: $0) }
        }
        return bytes
    }

    /// The model as ``ModelArchiveFixture`` archives it.
    var modelArchiveEntities: [ModelArchiveFixture.Entity] {
        entities.map { e in
            ModelArchiveFixture.Entity(
                name: e.name, parent: e.parent, isAbstract: e.isAbstract,
                attributes: e.attributes.map { ModelArchiveFixture.Attribute(name: $0.name, code: $0.type.code, isOptional: $0.isOptional) },
                relationships: e.relationships.map {
                    ModelArchiveFixture.Relationship(name: $0.name, destination: $0.destination, inverse: $0.inverse,
                                                     maxCount: $0.isToMany ? 0 : 1, isOrdered: $0.isOrdered, deleteRule: $0.deleteRule)
                }
            )
        }
    }
}
