import Foundation
@testable import Quarry
import QuarryTestSupport

extension TemporaryDirectory {
    /// sha256 of every file in the directory, by name: two equal fingerprints mean no file was
    /// written, made or removed.
    func fingerprint() throws -> [String: String] {
        var result: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: url.path) {
            result[name] = SHA256.hex(Array(try Data(contentsOf: file(name))))
        }
        return result
    }
}
