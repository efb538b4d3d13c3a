import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// Loading Xcode model files and folders: which file is read, and that the result is the model
/// Xcode shows.
@Suite struct XcodeModelLoadingTests {
    @Test func tickersModelEqualsTheBuilderModel() throws {
        let loaded = try ManagedObjectModel.load(xcodeModelAt: XcodeFixtures.url("Tickers.xcdatamodel"))
        let built = try ManagedObjectModel(TestModels.tickerDefinition())
        #expect(loaded.definition == built.definition)
        #expect(loaded == built)
        #expect(loaded.versionHash == built.versionHash)
        #expect(loaded.entityVersionHashes == built.entityVersionHashes)
        #expect(loaded.warnings.isEmpty)
    }

    @Test func contentsFileLoadsDirectly() throws {
        let folder = try ManagedObjectModel.load(xcodeModelAt: XcodeFixtures.url("Tickers.xcdatamodel"))
        let file = try ManagedObjectModel.load(xcodeModelAt: XcodeFixtures.url("Tickers.xcdatamodel/contents"))
        #expect(folder == file)
    }

    @Test func versionedModelLoadsTheCurrentVersion() throws {
        let model = try ManagedObjectModel.load(xcodeModelAt: XcodeFixtures.url("Tickers.xcdatamodeld"))
        let currency = try #require(model.entity(named: "Ticker")?.attribute("currency"))
        #expect(currency.type == .string)
        #expect(currency.defaultValue == .string("USD"))
        #expect(model.versionHash != TestModels.tickers().versionHash)
    }

    @Test func versionedModelFollowsXccurrentversion() throws {
        let dir = TemporaryDirectory()
        let v1 = try String(contentsOf: XcodeFixtures.url("Tickers.xcdatamodel/contents"), encoding: .utf8)
        try XcodeFixtures.write(v1, to: "T.xcdatamodeld/T.xcdatamodel/contents", in: dir)
        try XcodeFixtures.write(XcodeFixtures.document(""), to: "T.xcdatamodeld/T 2.xcdatamodel/contents", in: dir)
        try XcodeFixtures.write(XcodeFixtures.currentVersionPlist("T.xcdatamodel"), to: "T.xcdatamodeld/.xccurrentversion", in: dir)
        let model = try ManagedObjectModel.load(xcodeModelAt: dir.file("T.xcdatamodeld"))
        #expect(model == TestModels.tickers())
    }

    @Test func versionedModelWithOneVersionNeedsNoMarker() throws {
        let dir = TemporaryDirectory()
        let v1 = try String(contentsOf: XcodeFixtures.url("Tickers.xcdatamodel/contents"), encoding: .utf8)
        try XcodeFixtures.write(v1, to: "T.xcdatamodeld/T.xcdatamodel/contents", in: dir)
        let model = try ManagedObjectModel.load(xcodeModelAt: dir.file("T.xcdatamodeld"))
        #expect(model == TestModels.tickers())
    }

    @Test func versionedModelWithTwoVersionsAndNoMarkerIsAnError() throws {
        let dir = TemporaryDirectory()
        try XcodeFixtures.write(XcodeFixtures.document(""), to: "T.xcdatamodeld/A.xcdatamodel/contents", in: dir)
        try XcodeFixtures.write(XcodeFixtures.document(""), to: "T.xcdatamodeld/B.xcdatamodel/contents", in: dir)
        let error = #expect(throws: ModelError.self) {
            try ManagedObjectModel.load(xcodeModelAt: dir.file("T.xcdatamodeld"))
        }
        guard case .malformedFile(let path, _, _, let reason)? = error else {
            Issue.record("expected malformedFile, got \(String(describing: error))"); return
        }
        #expect(path.hasSuffix("T.xcdatamodeld"))
        #expect(reason.contains("A.xcdatamodel, B.xcdatamodel"))
        #expect(reason.contains(".xccurrentversion"))
    }

    @Test func xccurrentversionNamingAMissingVersionIsFileNotFound() throws {
        let dir = TemporaryDirectory()
        try XcodeFixtures.write(XcodeFixtures.document(""), to: "T.xcdatamodeld/A.xcdatamodel/contents", in: dir)
        try XcodeFixtures.write(XcodeFixtures.currentVersionPlist("Gone.xcdatamodel"), to: "T.xcdatamodeld/.xccurrentversion", in: dir)
        let error = #expect(throws: ModelError.self) {
            try ManagedObjectModel.load(xcodeModelAt: dir.file("T.xcdatamodeld"))
        }
        #expect(error == .fileNotFound(path: dir.file("T.xcdatamodeld/Gone.xcdatamodel").path))
    }

    @Test func xccurrentversionWithoutTheKeyIsMalformed() throws {
        let dir = TemporaryDirectory()
        try XcodeFixtures.write(XcodeFixtures.document(""), to: "T.xcdatamodeld/A.xcdatamodel/contents", in: dir)
        try XcodeFixtures.write("<plist version=\"1.0\"><dict/></plist>", to: "T.xcdatamodeld/.xccurrentversion", in: dir)
        let error = #expect(throws: ModelError.self) {
            try ManagedObjectModel.load(xcodeModelAt: dir.file("T.xcdatamodeld"))
        }
        #expect(error?.description.contains("_XCCurrentVersionName") == true)
    }

    @Test func missingModelIsFileNotFound() throws {
        let dir = TemporaryDirectory()
        #expect(throws: ModelError.fileNotFound(path: dir.file("None.xcdatamodel").path)) {
            try ManagedObjectModel.load(xcodeModelAt: dir.file("None.xcdatamodel"))
        }
        try FileManager.default.createDirectory(at: dir.file("Empty.xcdatamodel"), withIntermediateDirectories: true)
        #expect(throws: ModelError.fileNotFound(path: dir.file("Empty.xcdatamodel/contents").path)) {
            try ManagedObjectModel.load(xcodeModelAt: dir.file("Empty.xcdatamodel"))
        }
    }
}
