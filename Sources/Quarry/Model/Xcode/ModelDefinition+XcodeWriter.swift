extension ModelDefinition {
    /// The definition as the `contents` XML of an Xcode `.xcdatamodel` folder.
    ///
    /// The document is what Xcode's Core Data model editor writes: a
    /// `com.apple.IDECoreDataModeler.DataModel` model, entities and properties sorted by name,
    /// renaming identifiers as `elementID`, indexes as `<fetchIndex>` elements, uniqueness
    /// constraints as `<uniquenessConstraints>`, indexed attributes as `indexed="YES"`. An entity
    /// without a class name is given its own name as `representedClassName`, as Xcode's editor
    /// gives a new entity (class names are not part of model equality). Reading it back with
    /// ``ManagedObjectModel/load(xcodeModelAt:)`` gives an equal model (`==`), except for what
    /// Xcode's format cannot hold, which ``xcodeContentsLosses()`` lists. Pure; runs on the
    /// calling thread.
    ///
    /// ```swift
    /// let folder = URL(fileURLWithPath: "Tickers.xcdatamodel")
    /// try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
    /// try Data(model.definition.xcodeContentsXML().utf8).write(to: folder.appendingPathComponent("contents"))
    /// ```
    public func xcodeContentsXML() -> String {
        XcodeContentsWriter(self).xml
    }

    /// What ``xcodeContentsXML()`` leaves out because Xcode's format cannot hold it, one
    /// ``ModelWarning/xcodeExportLoss`` warning each: a Binary default (Core Data ignores
    /// those), an explicit `null` default, text with a control character XML 1.0 forbids.
    /// Empty when the XML describes the definition exactly.
    ///
    /// ```swift
    /// for warning in model.definition.xcodeContentsLosses() { print(warning) }
    /// ```
    public func xcodeContentsLosses() -> [ModelWarning] {
        XcodeContentsWriter(self).warnings
    }
}

extension ModelWarning {
    /// The name of the warning for something ``ModelDefinition/xcodeContentsXML()`` leaves out
    /// because Xcode's model format cannot hold it; the message names the entity and property.
    public static let xcodeExportLoss = "xcode.export-loss"
}
