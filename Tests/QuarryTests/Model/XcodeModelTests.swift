import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// The test bundle's fixture folder.
func fixture(_ path: String) -> URL {
    Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent(path)
}

@Suite("Xcode model loader")
struct XcodeModelTests {
    @Test("an .xcdatamodel equals the builder's model, version hash included")
    func equalsBuilder() throws {
        let xcode = try ManagedObjectModel.load(xcodeModelAt: fixture("xcode/Tickers.xcdatamodel"))
        let built = TestModels.tickers()
        #expect(xcode == built)
        #expect(xcode.versionHash == built.versionHash)
        #expect(xcode.entity(named: "Ticker")?.className == "Ticker")
        #expect(xcode.warnings.map(\.name) == ["xcode.ignored-element"], "the <elements> layout block")
    }

    @Test("an .xcdatamodeld with two versions loads the current one")
    func currentVersion() throws {
        let model = try ManagedObjectModel.load(xcodeModelAt: fixture("xcode/Tickers.xcdatamodeld"))
        #expect(model.entity(named: "Ticker")?.attribute("website")?.type == .uri)
        #expect(model != TestModels.tickers())
        let v1 = try ManagedObjectModel.load(xcodeModelAt: fixture("xcode/Tickers.xcdatamodeld/Tickers.xcdatamodel"))
        #expect(v1 == TestModels.tickers())
        #expect(v1.entity(named: "Ticker")!.versionHash != model.entity(named: "Ticker")!.versionHash)
        #expect(v1.entity(named: "Sector")!.versionHash == model.entity(named: "Sector")!.versionHash)
    }

    @Test("malformed XML names the file and line")
    func malformed() {
        let error = #expect(throws: ModelError.self) { try ManagedObjectModel.load(xcodeModelAt: fixture("xcode/bad/malformed.xml")) }
        guard case .malformedFile(let path, let line, _, _)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(path.hasSuffix("bad/malformed.xml"))
        #expect(line >= 4)
        #expect(error!.description.contains("malformed.xml:"))
    }

    @Test("a relationship without a destination is an error naming it")
    func noDestination() {
        #expect(throws: ModelError.missingDestination(entity: "A", relationship: "b")) {
            try ManagedObjectModel.load(xcodeModelAt: fixture("xcode/bad/no-destination.xml"))
        }
    }

    @Test("an unsupported attribute type names the entity, attribute and line")
    func unsupportedType() {
        let error = #expect(throws: ModelError.self) { try ManagedObjectModel.load(xcodeModelAt: fixture("xcode/bad/object-id.xml")) }
        #expect(error?.description.contains("'ObjectID' of 'A.ref'") == true)
        #expect(error?.description.contains("object-id.xml:5") == true)
    }

    @Test("elements Quarry does not use become named warnings")
    func warnings() throws {
        let model = try ManagedObjectModel.load(xcodeModelAt: fixture("xcode/bad/extras.xml"))
        #expect(model.warnings.count == 3)
        #expect(model.warnings.allSatisfy { $0.name == "xcode.ignored-element" })
        #expect(model.warnings.map(\.message).joined().contains("<fetchRequest>"))
    }

    @Test("a missing model file is an error naming the path")
    func missing() {
        #expect(throws: ModelError.fileNotFound(path: "/nonexistent/X.xcdatamodeld")) {
            try ManagedObjectModel.load(xcodeModelAt: URL(fileURLWithPath: "/nonexistent/X.xcdatamodeld"))
        }
    }
}

@Suite("Model building and validation")
struct ModelTests {
    func build(_ configure: (inout ModelBuilder) -> Void) throws -> ManagedObjectModel {
        var b = ModelBuilder()
        configure(&b)
        return try b.build()
    }

    @Test("the version hash is stable and schema-sensitive")
    func versionHash() throws {
        let model = TestModels.tickers()
        #expect(model.versionHash == TestModels.tickers().versionHash)
        // Computed once; any change to the hashing or the test model's schema shows here.
        #expect(model.versionHash == "5e79e7420a697aeae1988462cafbbabb96e2f597b37dd6d0fd9207aa93ccc221")
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(String(repeating: "a", count: 1000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
        var changed = TestModels.tickerDefinition()
        let t = changed.entities.firstIndex { $0.name == "Ticker" }!
        let v = changed.entities[t].attributes.firstIndex { $0.name == "volume" }!
        changed.entities[t].attributes[v].type = .integer32
        let other = try ManagedObjectModel(changed)
        #expect(other.versionHash != model.versionHash)
        #expect(other.entity(named: "Ticker")!.versionHash != model.entity(named: "Ticker")!.versionHash)
        #expect(other.entity(named: "Sector")!.versionHash == model.entity(named: "Sector")!.versionHash)
    }

    @Test("inheritance lays out inherited properties first, with shared indexes")
    func inheritance() {
        let model = TestModels.tickers()
        let asset = model.entity(named: "Asset")!, bond = model.entity(named: "Bond")!
        #expect(asset.isAbstract)
        #expect(bond.attributes.prefix(2).map(\.name) == ["code", "value"])
        #expect(bond.attributeIndex("code") == asset.attributeIndex("code"))
        #expect(bond.isKind(of: asset) && !asset.isKind(of: bond))
        #expect(Set(asset.selfAndDescendantIndices.map { model.entities[$0].name }) == ["Asset", "Stock", "Bond"])
        #expect(bond.rootName == "Asset")
    }

    @Test("each kind of model error names what is wrong")
    func errors() {
        #expect(throws: ModelError.unknownParent(entity: "B", parent: "Nope")) { try build { $0.entity("B", parent: "Nope") } }
        #expect(throws: ModelError.inheritanceCycle(entity: "A")) {
            try build { $0.entity("A", parent: "B"); $0.entity("B", parent: "A") }
        }
        #expect(throws: ModelError.duplicateEntity("A")) { try build { $0.entity("A"); $0.entity("A") } }
        #expect(throws: ModelError.duplicateProperty(entity: "A", property: "x")) {
            try build { $0.entity("A") { e in e.attribute("x", .string); e.toOne("x", destination: "A") } }
        }
        #expect(throws: ModelError.duplicateProperty(entity: "B", property: "x")) {
            try build { $0.entity("A") { e in e.attribute("x", .string) }; $0.entity("B", parent: "A") { e in e.attribute("x", .string) } }
        }
        #expect(throws: ModelError.missingDestination(entity: "A", relationship: "r")) {
            try build { $0.entity("A") { e in e.toOne("r", destination: "") } }
        }
        #expect(throws: ModelError.unknownDestination(entity: "A", relationship: "r", destination: "Z")) {
            try build { $0.entity("A") { e in e.toOne("r", destination: "Z") } }
        }
        #expect(throws: ModelError.self) {
            try build { $0.entity("A") { e in e.toOne("r", destination: "B", inverse: "back") }; $0.entity("B") }
        }
        #expect(throws: ModelError.unknownAttribute(entity: "A", attribute: "nope", usedIn: "index 'i'")) {
            try build { $0.entity("A") { e in e.attribute("x", .string); e.index("i", "nope") } }
        }
        #expect(throws: ModelError.invalidDefault(entity: "A", attribute: "n", value: "'x'")) {
            try build { $0.entity("A") { e in e.attribute("n", .integer16, default: .string("x")) } }
        }
        #expect(throws: ModelError.invalidName("9lives")) { try build { $0.entity("9lives") } }
    }
}
