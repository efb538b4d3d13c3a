import Foundation
import QuarryTestSupport

/// A temporary folder of model files, each defining the one entity it is told to, so a test
/// can see which file a stack loaded from the entities it has.
struct ModelFolderFixture {
    let directory = TemporaryDirectory()

    /// The folder.
    var url: URL { directory.url }

    /// Writes `<name>.json`, a JSON model with the entity `entity`.
    func json(_ name: String, entity: String) throws {
        let model = #"{"entities": [{"name": "\#(entity)", "attributes": [{"name": "name", "type": "String"}]}]}"#
        try Data(model.utf8).write(to: url.appendingPathComponent("\(name).json"))
    }

    /// Writes `<name>.xcdatamodel`, an Xcode model folder with the entity `entity`.
    func xcodeModel(_ name: String, entity: String) throws {
        try Self.writeXcodeModel(at: url.appendingPathComponent("\(name).xcdatamodel"), entity: entity)
    }

    /// Writes `<name>.xcdatamodeld`, a versioned Xcode model with one version holding the entity `entity`.
    func xcodeBundle(_ name: String, entity: String) throws {
        try Self.writeXcodeModel(at: url.appendingPathComponent("\(name).xcdatamodeld/\(name).xcdatamodel"), entity: entity)
    }

    /// Writes `<name>.<ext>` (`momd` or `mom`): a stand-in for a compiled Core Data model.
    /// A compiled model `name.mom` (a keyed archive of one entity), or a `name.momd` bundle
    /// holding it as its current version `name 2` beside an older `name`.
    func compiled(_ name: String, ext: String, entity: String? = nil) throws {
        let entity = entity ?? "From\(ext.capitalized)"
        let archive = try ModelArchiveFixture.archive([.init(name: entity, attributes: [.init(name: "name", code: 700)])])
        guard ext == "momd" else {
            try archive.write(to: url.appendingPathComponent("\(name).\(ext)"))
            return
        }
        let bundle = url.appendingPathComponent("\(name).momd")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try archive.write(to: bundle.appendingPathComponent("\(name) 2.mom"))
        let older = try ModelArchiveFixture.archive([.init(name: "Older", attributes: [.init(name: "name", code: 700)])])
        try older.write(to: bundle.appendingPathComponent("\(name).mom"))
        let info = try PropertyListSerialization.data(fromPropertyList: ["NSManagedObjectModel_CurrentVersionName": "\(name) 2"],
                                                      format: .binary, options: 0)
        try info.write(to: bundle.appendingPathComponent("VersionInfo.plist"))
    }

    private static func writeXcodeModel(at folder: URL, entity: String) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let contents = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" systemVersion="23C71" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                <entity name="\(entity)" representedClassName="\(entity)" syncable="YES">
                    <attribute name="name" optional="YES" attributeType="String"/>
                </entity>
            </model>
            """
        try Data(contents.utf8).write(to: folder.appendingPathComponent("contents"))
    }
}
