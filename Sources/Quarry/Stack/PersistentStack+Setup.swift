import Foundation

extension PersistentStack {
    /// Sets up a stack with every model file found in `folder` (`.json` model files,
    /// `.xcdatamodel`, `.xcdatamodeld`) merged into one model (RTCoreDataStack's
    /// `setupWithCallback:`; see ``mergedModel(in:)``). The store is named after the executable
    /// unless `options` name or place it (``Options/storeName``).
    /// - Throws: ``ModelError`` when none is found or two define the same entity
    ///   (``ModelError/duplicateEntityInFiles(entity:first:second:)``), ``StoreError`` for the store.
    public convenience init(modelsIn folder: URL, options: Options = Options()) throws {
        try self.init(model: try Self.mergedModel(in: folder), options: options)
    }

    /// Sets up a stack with the model named `name` in `folder` (RTCoreDataStack's
    /// `setupWithDataModelNamed:`; the first of `name.json`, `name.xcdatamodeld` and
    /// `name.xcdatamodel` found, see ``loadModel(named:in:)``). Its store is `<name>.sqlite` at the
    /// default location (na_ios: `hoge.xcdatamodeld` → `hoge.sqlite`) unless `options` set
    /// ``Options/storeName`` or ``Options/storeURL``.
    ///
    /// ```swift
    /// let stack = try PersistentStack(modelNamed: "Tickers", in: URL(fileURLWithPath: "Models"))
    /// // stack.storeURL: $XDG_DATA_HOME/quarry/Tickers.sqlite
    /// ```
    /// - Throws: ``ModelError/modelNotFound(folder:tried:)`` when no such model is there,
    ///   the loader's ``ModelError`` for a bad one, ``StoreError`` for the store.
    public convenience init(modelNamed name: String, in folder: URL, options: Options = Options()) throws {
        try self.init(model: try Self.loadModel(named: name, in: folder), options: options.namingStore(afterModel: name))
    }

    /// Sets up a stack with the model file at `modelURL` (`.json`, `.xcdatamodel` or
    /// `.xcdatamodeld`) and a store of `storeType` at `storeURL` (M3's manager: type, model
    /// URL, store URL, options; RTCoreDataStack's `setupWithDataModelNamed:storeURL:`; `nil` for
    /// the default location, or no file for `.inMemory`).
    ///
    /// ```swift
    /// let stack = try PersistentStack(modelURL: URL(fileURLWithPath: "Tickers.json"),
    ///                                 storeURL: URL(fileURLWithPath: "Tickers.jsonstore"), storeType: .json)
    /// ```
    /// - Throws: ``ModelError`` for the model file, ``StoreError`` or ``JSONStoreError`` for the store.
    public convenience init(modelURL: URL, storeURL: URL?, storeType: StoreType = .sqlite,
                            options: Options = Options()) throws {
        var options = options
        options.storeType = storeType
        if let storeURL { options.storeURL = storeURL }
        try self.init(model: try Self.loadModel(at: modelURL), options: options)
    }
}
