import Foundation

/// The repository's `Themes/` folder, found from this file's path.
let repositoryThemesDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // QuarryTUITests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // repository root
    .appendingPathComponent("Themes")

/// A fresh, empty temporary directory holding theme files for one test, removed by `remove()`.
struct ThemeScratchDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-themes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `text` to `name` (which may contain folders) inside the directory; returns its URL.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
