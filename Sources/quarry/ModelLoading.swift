import Foundation
import Quarry
import QuarryTUI

/// How every command reads a model file and reports what the loader warned about.
enum ModelLoading {
    /// Loads the model file at `path`: a JSON model (`.json`, or any file starting with `{`), an
    /// Xcode model (a `.xcdatamodeld` or `.xcdatamodel` folder, or a `contents` file) or a
    /// compiled one (a `.momd` bundle or a `.mom` file).
    ///
    /// The loader's warnings are printed on standard error (see ``reportWarnings(of:)``) unless
    /// `reportingWarnings` is false, for a caller that shows them itself.
    /// - Throws: the loader's ``ModelError``, which names the file (and line) at fault.
    static func load(modelAt path: String, reportingWarnings: Bool = true) throws -> ManagedObjectModel {
        let url = URL(fileURLWithPath: path)
        let model: ManagedObjectModel
        if ["momd", "mom"].contains(url.pathExtension) {
            model = try ManagedObjectModel.load(compiledModelAt: url)
        } else {
            model = isJSON(url) ? try ManagedObjectModel.load(jsonAt: url) : try ManagedObjectModel.load(xcodeModelAt: url)
        }
        if reportingWarnings { reportWarnings(of: model) }
        return model
    }

    /// Prints each of `model`'s loader warnings on standard error, one line each, control
    /// characters escaped (the text comes from the model file).
    static func reportWarnings(of model: ManagedObjectModel) {
        for warning in model.warnings {
            // The engine cannot name the command line's way out; the command line can.
            let hint = warning.name == ModelWarning.unregisteredTransformer
                ? " (--transformer NAME=keyed-archive reads them through a built-in transformer)" : ""
            FileHandle.standardError.write(Data("quarry: \(ConsoleText.escapedLines(warning.description))\(hint)\n".utf8))
        }
    }

    /// Whether `url` names a JSON model: by its extension, or, for a file with another name,
    /// by its first non-blank byte (a JSON model is an object; Xcode's `contents` is XML).
    private static func isJSON(_ url: URL) -> Bool {
        if url.pathExtension == "json" { return true }
        if ["xcdatamodel", "xcdatamodeld", "momd", "mom"].contains(url.pathExtension) { return false }
        // Only a regular file is opened to look: a FIFO would block (the loader refuses it by kind).
        guard FileKind(path: url.path).kind == .regularFile, let handle = FileHandle(forReadingAtPath: url.path) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 256)) ?? Data()
        return head.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) } == UInt8(ascii: "{")
    }
}
