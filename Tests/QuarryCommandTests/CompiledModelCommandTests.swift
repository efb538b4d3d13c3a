import Foundation
@testable import Quarry
import QuarryTestSupport
import Testing

/// `quarry model` on the corpus's compiled `.momd` and on the `.xcdatamodeld` it was compiled
/// from prints the same model, version by version.
@Suite("Compiled models on the command line")
struct CompiledModelCommandTests {
    /// `quarry model PATH` without its first line (the path) and the warnings (an Xcode
    /// source's diagram layout is one).
    static func described(_ path: String) throws -> String {
        let result = try QuarryExecutable.run(["model", path])
        try #require(result.status == 0, "\(result.standardError)")
        return result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
            .dropFirst().prefix { !$0.hasPrefix("warnings:") }.joined(separator: "\n")
    }

    @Test("each version of XCServerCoreData.momd prints as its .xcdatamodel does")
    func versionByVersion() throws {
        guard let (compiled, source) = ModelCorpus.compiledBundles().first else {
            print("skipped: no corpus with a compiled .momd beside its .xcdatamodeld (../shared/corpus)")
            return
        }
        var compared = 0
        for file in try FileManager.default.contentsOfDirectory(atPath: compiled.path).sorted() where file.hasSuffix(".mom") {
            let name = String(file.dropLast(4))
            let xcode = source.appendingPathComponent(name + ".xcdatamodel")
            guard FileManager.default.fileExists(atPath: xcode.path) else { continue }
            #expect(try Self.described(compiled.appendingPathComponent(file).path) == Self.described(xcode.path), "version \(name)")
            compared += 1
        }
        #expect(compared >= 4, "versions compared: \(compared)")
    }
}
