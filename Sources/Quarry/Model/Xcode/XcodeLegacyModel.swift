import Foundation

/// What an `.xcdatamodel` folder without a `contents` file holds, so that the error says so
/// instead of calling the model missing.
///
/// Before Xcode 4, the model editor wrote a model as a binary archive named `elements` (with the
/// diagram in `layout`); Xcode 4 and later write the XML `contents` file Quarry reads. Quarry
/// does not read the old archive: Xcode converts it when the model is opened and saved.
enum XcodeLegacyModel {
    /// The error for the `.xcdatamodel` folder `model`, which has no `contents` file: naming the
    /// pre-Xcode 4 format and what the folder holds when it has an `elements` file, else
    /// ``ModelError/fileNotFound(path:)`` for the missing `contents`.
    static func missingContents(in model: URL) -> ModelError {
        // Only shapes the message of an error already being reported: an unlistable folder is reported as a missing `contents`.
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: model.path)) ?? []).sorted()
        guard names.contains("elements") else { return .fileNotFound(path: model.appendingPathComponent("contents").path) }
        let held = names.map { "'\($0)'" }.joined(separator: ", ")
        return .unsupported(
            path: model.path, line: 0,
            feature: "a model in the pre-Xcode 4 format (the folder holds \(held): a binary 'elements' archive and no 'contents' file); "
                + "this format is not read: open the model in Xcode 4 or later and save it, which writes the XML 'contents' file Quarry reads")
    }
}
