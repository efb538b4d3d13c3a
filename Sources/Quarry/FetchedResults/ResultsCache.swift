import Foundation
import Synchronization

/// The persistent cache of a fetched-results controller (its `cacheName`): the sorted index
/// (object IDs, sort-key columns, section boundaries) in one binary file, with what it was
/// computed from.
///
/// File layout (version 1, little-endian, every length counted in bytes unless noted):
///
/// | field | encoding |
/// |---|---|
/// | magic | `QFRC` (4 bytes) |
/// | format version | `UInt32` (1) |
/// | fingerprint | string: SHA-256 (hex) of the model version hash, entity, sub-entity flag, predicate, sort keys and section key path |
/// | store token | string: the store's ``PersistentStore/modificationToken()`` read before the fetch |
/// | count *n* | `UInt64` |
/// | IDs | entity mode (`0`: one `Int32` entity index for all; `1`: an `Int32` per row), then `Int64` primary keys × *n* |
/// | key columns | `UInt32` column count, then each typed column (see ``ResultsColumnCodec``) |
/// | sections | `UInt32` count *s*, `Int64` start × *s*, string name × *s* |
/// | checksum | `UInt64`: ``ResultsCache/checksum(_:)`` of every preceding byte |
///
/// Strings are a `UInt32` byte count and UTF-8. A file that is short, has another magic,
/// version or checksum, or whose contents do not parse, is ignored (and rewritten by the
/// next fetch).
enum ResultsCache {
    static let magic: [UInt8] = Array("QFRC".utf8)
    static let formatVersion: UInt32 = 1

    /// What a cache file holds.
    struct Contents {
        var fingerprint: String
        var token: String
        var results: SortedResults
        var sectionStarts: [Int]
        var sectionNames: [String]
    }

    /// The fingerprint of everything a cached index depends on besides the store's contents.
    static func fingerprint(request: FetchRequest, sectionNameKeyPath: String?, model: ManagedObjectModel) -> String {
        var text = "quarry-frc-cache 1\u{1}model \(model.versionHash)\u{1}entity \(request.entityName)\u{1}sub \(request.includesSubentities)\u{1}"
        text += "predicate "
        if let predicate = request.predicate { canonical(predicate, into: &text) } else { text += "none" }
        for key in request.sortDescriptors {
            text += "\u{1}sort \(key.keyPath.utf8.count):\(key.keyPath) \(key.ascending) \(key.comparison.rawValue)"
        }
        text += "\u{1}section " + (sectionNameKeyPath.map { "\($0.utf8.count):\($0)" } ?? "none")
        return SHA256.hex(text)
    }

    /// A lossless text form of a value tree (doubles and dates by bit pattern, data in full);
    /// collections without a fixed order may give different texts for equal values, which
    /// only costs a cache miss.
    static func canonical(_ value: Any, into out: inout String) {
        switch value {
        case let d as Double: out += "d\(d.bitPattern)"
        case let f as Float: out += "f\(f.bitPattern)"
        case let s as String: out += "s\(s.utf8.count):\(s)"
        case let s as Substring: out += "s\(s.utf8.count):\(s)"
        case let d as Date: out += "t\(d.timeIntervalSinceReferenceDate.bitPattern)"
        case let d as Data: out += "b\(d.count):\(d.base64EncodedString())"
        case let d as Decimal: out += "m\(d)"
        case let u as URL: out += "u\(u.absoluteString.utf8.count):\(u.absoluteString)"
        case let u as UUID: out += "g\(u.uuidString)"
        default:
            let mirror = Mirror(reflecting: value)
            if mirror.children.isEmpty {
                out += "[\(mirror.subjectType)]\(String(reflecting: value))"
                return
            }
            out += "[\(mirror.subjectType)]("
            for child in mirror.children {
                out += "\(child.label ?? "_")="
                canonical(child.value, into: &out)
                out += ","
            }
            out += ")"
        }
    }

    // MARK: File names

    /// The default cache directory: `$XDG_CACHE_HOME/quarry/frc`, else `~/.cache/quarry/frc`.
    static func standardDirectory() -> URL {
        let environment = ProcessInfo.processInfo.environment
        let base: URL
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            base = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache", isDirectory: true)
        }
        return base.appendingPathComponent("quarry", isDirectory: true).appendingPathComponent("frc", isDirectory: true)
    }

    /// The file of cache `name` in `directory`: letters, digits, `-`, `_` and `.` kept, every
    /// other byte written as `%XX`, so any name maps to one file and never leaves the directory.
    static func fileURL(name: String, directory: URL) -> URL {
        var file = ""
        for byte in name.utf8 {
            let c = Character(Unicode.Scalar(byte))
            if byte < 0x80 && (c.isLetter || c.isNumber || c == "-" || c == "_" || (c == "." && !file.isEmpty)) {
                file.append(c)
            } else {
                file += String(format: "%%%02X", byte)
            }
        }
        return directory.appendingPathComponent(file + ".frccache", isDirectory: false)
    }

    // MARK: Writing and reading

    /// Writes `contents` to `url` atomically (a temporary file renamed over the old one).
    ///
    /// The file is written as it is encoded, 256 KiB at a time (``CacheWriter``), and the
    /// index is read a chunk at a time (``ResultsColumnCodec``): writing the cache of a large
    /// index holds a chunk's values and 256 KiB of the file besides the index, never the
    /// whole file or a flat copy of a column.
    static func write(_ contents: Contents, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
        }
        do {
            let file = try FileHandle(forWritingTo: temporary)
            do {
                var w = CacheWriter(file: file)
                w.bytes(magic)
                w.u32(formatVersion)
                w.string(contents.fingerprint)
                w.string(contents.token)
                w.u64(UInt64(contents.results.count))
                ResultsColumnCodec.write(contents.results, into: &w)
                w.u32(UInt32(contents.sectionStarts.count))
                for s in contents.sectionStarts { w.i64(Int64(s)) }
                for name in contents.sectionNames { w.string(name) }
                try w.finish()
                try file.synchronize()
            } catch {
                try? file.close() // clean-up after a failed write; that error is what is thrown
                throw error
            }
            try file.close()
            guard rename(temporary.path, url.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary) // clean-up; the write's error is thrown
            throw error
        }
    }

    /// The cache at `url` if it exists, is intact and matches `fingerprint` and `token`; `nil`
    /// otherwise (never throws: a damaged cache is only a miss).
    ///
    /// The file is read by position, never mapped, and the index is rebuilt a chunk at a time
    /// (see ``ResultsColumnCodec/read(count:sortKeys:from:file:)``): reading holds the index
    /// and a few buffers, never the file or a flat copy of its columns.
    static func read(from url: URL, fingerprint: String, token: String, sortKeys: [SortKey]) -> Contents? {
        guard let file = CacheFile(path: url.path), file.size >= 16 else { return nil }
        let body = file.size - 8
        do {
            guard try CacheReader(file: file, offset: body, end: file.size).u64() == file.checksum(ofFirst: body) else { return nil }
            let r = CacheReader(file: file, offset: 0, end: body)
            guard try r.bytes(4) == magic, try r.u32() == formatVersion else { return nil }
            guard try r.string() == fingerprint, try r.string() == token else { return nil }
            let n = try r.count(try r.u64())
            let results = try ResultsColumnCodec.read(count: n, sortKeys: sortKeys, from: r, file: file)
            let s = try r.count(UInt64(try r.u32()))
            var starts: [Int] = []
            starts.reserveCapacity(s)
            for _ in 0..<s {
                let start = try r.i64()
                guard start >= 0, start < max(n, 1), start > (starts.last.map(Int64.init) ?? -1) else { return nil }
                starts.append(Int(start))
            }
            var names: [String] = []
            for _ in 0..<s { names.append(try r.string()) }
            guard r.isAtEnd else { return nil }
            return Contents(fingerprint: fingerprint, token: token, results: results, sectionStarts: starts, sectionNames: names)
        } catch {
            return nil
        }
    }

    /// A 64-bit checksum of `bytes` (FNV-style, eight bytes at a time): catches truncation and
    /// damage, not tampering.
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.withUnsafeBytes { checksum($0) }
    }

    static func checksum(_ raw: UnsafeRawBufferPointer) -> UInt64 {
        var running = RunningChecksum()
        let whole = raw.count / 8 * 8
        running.addWords(UnsafeRawBufferPointer(rebasing: raw[..<whole]))
        return running.finish(tail: UnsafeRawBufferPointer(rebasing: raw[whole...]))
    }
}
