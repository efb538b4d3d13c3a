import ArgumentParser
import Foundation
import Quarry

/// `quarry create STORE --model MODEL`: a new, empty store for a model.
struct CreateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create a new, empty store for a model.",
        discussion: """
            The model is a JSON model file, an Xcode model (.xcdatamodeld or .xcdatamodel folder) \
            or its contents file. Nothing is written when STORE exists already, whatever it is, \
            unless --force: a regular file there is then replaced, in one rename, by the new store \
            (a folder, a link or anything else is never replaced).
            """
    )

    @Argument(help: "The store file to create (it must not exist), or a postgres:// store URL (no store may be in its schema).")
    var store: String

    @OptionGroup var modelOption: RequiredModelOption

    @OptionGroup var forceOption: ForceOption

    @OptionGroup var transformers: TransformerMappingOptions

    /// `--model`: the new store's model.
    var model: String { modelOption.model }

    func run() throws {
        let location = StoreLocation(newStoreAt: store)
        if location.isPostgreSQL {
            guard try !PostgreSQLStoreOpening.exists(store) else {
                throw CommandFailure("\(location.shown): a store is there already; quarry create never overwrites one")
            }
            let objectModel = try ModelLoading.load(modelAt: model)
            _ = try PostgreSQLStoreOpening.store(store, model: objectModel, readOnly: false)
            print(StoreCreation.summary(of: location.shown, model: objectModel))
            return
        }
        let url = URL(fileURLWithPath: store)
        // Refused before the model is even read: whatever is at STORE is never opened.
        try StoreCreation.checkCreatable(url, replacing: forceOption.force)
        let objectModel = try ModelLoading.load(modelAt: model)
        if StoreCreation.somethingExists(at: url.path) {
            // --force: made beside the file and renamed onto it, so the file is whole until then.
            do {
                try StoreCreation.buildThenRename(url, replacing: true) { partial in try StoreCreation.create(at: partial, model: objectModel) }
            } catch {
                throw CommandFailure("\(error)")
            }
        } else {
            try StoreCreation.create(at: url, model: objectModel)
        }
        print(StoreCreation.summary(of: url, model: objectModel))
    }
}
