import Foundation

extension PersistentStack {
    /// An existing store made with another model than the stack's, as told to
    /// ``Options/onModelMismatch`` when the stack opens it.
    ///
    /// ```swift
    /// var options = PersistentStack.Options()
    /// options.onModelMismatch = { mismatch in
    ///     print("\(mismatch.storeURL.path): \(mismatch.entities.joined(separator: ", ")) changed")
    ///     return mismatch.entities == ["Cache"] ? .replace : .migrate
    /// }
    /// ```
    public struct ModelMismatch: Sendable, Equatable {
        /// Where the store lives (a file for SQLite, a folder for JSON).
        public var storeURL: URL
        /// The store's type.
        public var storeType: StoreType
        /// The entities whose definitions differ between the store's model and the stack's
        /// (as ``StoreError/modelMismatch(path:entities:)`` names them).
        public var entities: [String]

        /// A mismatch of the store of `storeType` at `storeURL` in `entities`.
        public init(storeURL: URL, storeType: StoreType, entities: [String]) {
            self.storeURL = storeURL
            self.storeType = storeType
            self.entities = entities
        }
    }
}
