import Foundation

/// A stack's JSON back end: one store folder, loaded whole into one instance that both
/// coordinators share (two instances on one folder would each save over the other's state).
/// Nothing else is expected to write the folder, so there is no change feed.
struct JSONBackEnd: StoreBackEnd {
    /// The store folder.
    let url: URL
    let main: JSONStore
    var writer: JSONStore { main }

    /// Opens the store folder `options` name (made, or copied from the seed, when absent); when
    /// it was made with another model and ``PersistentStack/Options/onModelMismatch`` is set
    /// (and the open is not read-only), the delegate decides: replace, or refuse (a JSON store
    /// is never migrated, so `.migrate` refuses too).
    static func open(model: ManagedObjectModel, options: PersistentStack.Options) throws -> JSONBackEnd {
        let url = try options.preparedStoreLocation()
        do {
            return JSONBackEnd(url: url, main: try JSONStore(url: url, model: model, readOnly: options.readOnly))
        } catch StoreError.modelMismatch(let path, let entities) {
            guard let decide = options.onModelMismatch, !options.readOnly,
                  decide(PersistentStack.ModelMismatch(storeURL: url, storeType: .json, entities: entities)) == .replace else {
                throw StoreError.modelMismatch(path: path, entities: entities)
            }
            // The folder holds _Metadata.json (its model was read from there): a JSON store.
            try FileManager.default.removeItem(at: url)
            try options.copySeed(to: url)
            return JSONBackEnd(url: url, main: try JSONStore(url: url, model: model, readOnly: options.readOnly))
        }
    }

    /// Removes the store folder; only a JSON store folder: a folder of anything else is left
    /// alone (and the open that follows refuses it).
    func destroy() throws {
        if FileManager.default.fileExists(atPath: url.appendingPathComponent(JSONStoreFolder.metadataName).path) {
            try FileManager.default.removeItem(at: url)
        }
    }
}
