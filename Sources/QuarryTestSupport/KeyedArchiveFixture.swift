import CZlib
import Foundation

/// Writes NSKeyedArchiver-format property lists for tests: objects are added to `$objects` and
/// referred to by UID. UIDs are written as `{CF$UID = n}` in an XML property list, which
/// Foundation reads back as real keyed-archiver UIDs; the result is re-serialised as binary,
/// the format Core Data stores, so the reader sees exactly what it sees in a real store.
public struct KeyedArchiveFixture {
    /// `$objects`; index 0 is `$null`.
    public var objects: [Any] = ["$null"]
    private var classUIDs: [String: Int] = [:]

    /// An archive holding only `$null`.
    public init() {}

    /// A UID as written in a property list.
    public static func uid(_ n: Int) -> [String: Any] { ["CF$UID": n] }

    /// Appends `object` and returns its UID.
    @discardableResult
    public mutating func add(_ object: Any) -> Int {
        objects.append(object)
        return objects.count - 1
    }

    /// The UID of the class description `name` with superclasses `superclasses` (one per name).
    public mutating func classUID(_ name: String, _ superclasses: [String] = ["NSObject"]) -> Int {
        if let uid = classUIDs[name] { return uid }
        let uid = add(["$classname": name, "$classes": [name] + superclasses] as [String: Any])
        classUIDs[name] = uid
        return uid
    }

    /// An object of class `name` with `fields` (values: scalars or ``uid(_:)``s).
    public mutating func object(_ name: String, _ superclasses: [String] = ["NSObject"], _ fields: [String: Any]) -> Int {
        var fields = fields
        fields["$class"] = Self.uid(classUID(name, superclasses))
        return add(fields)
    }

    /// An `NSArray` of the objects `uids`.
    public mutating func array(_ uids: [Int], className: String = "NSArray") -> Int {
        object(className, className == "NSArray" ? ["NSObject"] : ["NSArray", "NSObject"], ["NS.objects": uids.map(Self.uid)])
    }

    /// An `NSDictionary` of the keys and objects `pairs`.
    public mutating func dictionary(_ pairs: [(Int, Int)]) -> Int {
        object("NSMutableDictionary", ["NSDictionary", "NSObject"], [
            "NS.keys": pairs.map { Self.uid($0.0) }, "NS.objects": pairs.map { Self.uid($0.1) },
        ])
    }

    /// The archive with `$top.root` = `root`, as a binary property list.
    public func archive(root: Int, archiver: String = "NSKeyedArchiver") throws -> Data {
        try Self.binary(["$archiver": archiver, "$version": 100000, "$top": ["root": Self.uid(root)], "$objects": objects])
    }

    /// `plist` as a binary property list, its `{CF$UID = n}` dictionaries turned into UIDs.
    public static func binary(_ plist: Any) throws -> Data {
        let xml = try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
        let parsed = try PropertyListSerialization.propertyList(from: xml, options: [], format: nil)
        return try PropertyListSerialization.data(fromPropertyList: parsed, format: .binary, options: 0)
    }

    /// `data` compressed as raw DEFLATE (no header), as Core Data writes `Z_MODELCACHE`.
    public static func deflate(_ data: Data) -> Data {
        var stream = z_stream()
        precondition(quarry_deflateInit2(&stream, 9, -15) == Z_OK)
        defer { deflateEnd(&stream) }
        var input = [UInt8](data)
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 64)
        let produced = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                precondition(CZlib.deflate(&stream, Z_FINISH) == Z_STREAM_END)
                return outBuffer.count - Int(stream.avail_out)
            }
        }
        return Data(output[0..<produced])
    }
}
