import Foundation
import QuarryTestSupport
import Testing

/// The built `quarry` binary, run to its end.
enum QuarryExecutable {
    /// Runs `quarry ARGUMENTS` with standard input from `input` (`/dev/null` when `nil`).
    static func run(_ arguments: [String], input: String? = nil) throws -> CommandRunner.Result {
        let executable = try #require(TmuxHarness.builtExecutable(named: "quarry"), "build quarry first (swift build --build-tests)")
        return try CommandRunner.run(executable, arguments, input: input)
    }

    /// Writes `text` to `url`, creating its folder.
    @discardableResult
    static func write(_ text: String, to url: URL) throws -> URL {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url
    }

    /// An Xcode `contents` document with one `Note` entity and an element Quarry ignores (so
    /// loading it gives one `xcode.ignored-element` warning, on line 5).
    static let xcodeModelWithAWarning = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Note" representedClassName="Note" syncable="YES">
                <attribute name="text" optional="YES" attributeType="String"/>
                <userInfo><entry key="k" value="v"/></userInfo>
            </entity>
        </model>
        """
}
