import Foundation
import QuarryTestSupport

/// Locates the Xcode model fixtures and writes throw-away model files.
enum XcodeFixtures {
    /// `Fixtures/xcode/<name>` in the test bundle.
    static func url(_ name: String) -> URL {
        Bundle.module.url(forResource: "Fixtures", withExtension: nil)!
            .appendingPathComponent("xcode")
            .appendingPathComponent(name)
    }

    /// A model document with Xcode 15's header around `body`.
    static func document(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" systemVersion="23C71" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
        \(body)
        </model>
        """
    }

    /// Writes `text` to `<directory>/<relativePath>`, creating folders, and returns its URL.
    @discardableResult
    static func write(_ text: String, to relativePath: String, in directory: TemporaryDirectory) throws -> URL {
        let url = directory.url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url
    }

    /// An `.xccurrentversion` property list naming `version`.
    static func currentVersionPlist(_ version: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>_XCCurrentVersionName</key>
        \t<string>\(version)</string>
        </dict>
        </plist>
        """
    }
}
