import Foundation
import QuarryTestSupport
import Testing

/// Issue 34, item 6, on the command line: a model naming an app's own value transformer loads
/// with a warning naming the file, line, entity and attribute; `--transformer NAME=BUILTIN`
/// reads it through a built-in one.
struct TransformerOptionCommandTests {
    let directory = TemporaryDirectory()

    private func model() throws -> URL {
        let folder = directory.file("Doc.xcdatamodel")
        try QuarryExecutable.write("""
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Doc" syncable="YES">
                    <attribute name="colors" optional="YES" attributeType="Transformable" valueTransformerName="ColorsTransformer"/>
                </entity>
            </model>
            """, to: folder.appendingPathComponent("contents"))
        return folder
    }

    @Test func aModelNamingAnUnknownTransformerLoadsWithAWarningNamingIt() throws {
        let folder = try model()
        let result = try QuarryExecutable.run(["model", folder.path, "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("\"valueTransformer\": \"ColorsTransformer\""))
        #expect(result.standardError.contains(
            "quarry: warning[model.unregistered-transformer]: \(folder.path)/contents:4: attribute 'Doc.colors' names value transformer 'ColorsTransformer', which is not registered"))
        #expect(result.standardError.contains("--transformer NAME=keyed-archive"))
        #expect(!result.standardError.contains("^J"))
    }

    @Test func transformerMapsTheNameToABuiltInOne() throws {
        let folder = try model()
        let result = try QuarryExecutable.run(["model", folder.path, "--json", "--transformer", "ColorsTransformer=keyed-archive"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!result.standardError.contains("unregistered-transformer"), "\(result.standardError)")
        let create = try QuarryExecutable.run(["create", directory.file("docs.sqlite").path, "--model", folder.path, "--transformer", "ColorsTransformer=property-list"])
        #expect(create.status == 0, "\(create.standardError)")
        #expect(!create.standardError.contains("unregistered-transformer"), "\(create.standardError)")
    }

    @Test func anUnknownBuiltInOrAMalformedMappingIsRefusedByName() throws {
        let folder = try model()
        let unknown = try QuarryExecutable.run(["model", folder.path, "--transformer", "ColorsTransformer=nope"])
        #expect(unknown.status != 0)
        #expect(unknown.standardError.contains("--transformer ColorsTransformer=nope: 'nope' is not a built-in value transformer (use one of: keyed-archive, property-list)"))
        let malformed = try QuarryExecutable.run(["model", folder.path, "--transformer", "ColorsTransformer"])
        #expect(malformed.status != 0)
        #expect(malformed.standardError.contains("expected NAME=BUILTIN"))
    }
}
