import Foundation

/// `-` as the file a command reads (`quarry import STORE -`): standard input, copied to a
/// private temporary file first (an import reads its file twice: once to check every row, once
/// to save them). The copy is removed when the command is done with it.
struct StandardInputCopy {
    /// The temporary file holding what standard input gave.
    let url: URL
    /// What messages call it.
    static let name = "<stdin>"

    /// Copies standard input to a new temporary file whose name ends in `.EXTENSION`.
    /// - Throws: `CommandFailure` when the copy cannot be made.
    init(pathExtension: String) throws {
        let folder = FileManager.default.temporaryDirectory
        url = folder.appendingPathComponent("quarry-stdin-\(UUID().uuidString).\(pathExtension)")
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else {
            throw CommandFailure("\(Self.name): cannot copy standard input to \(url.path): \(String(cString: strerror(errno)))")
        }
        let output = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            while let chunk = try FileHandle.standardInput.read(upToCount: 1 << 20), !chunk.isEmpty {
                try output.write(contentsOf: chunk)
            }
            try output.close()
        } catch {
            remove()
            throw CommandFailure("\(Self.name): cannot read standard input: \(error.localizedDescription)")
        }
    }

    /// Removes the copy.
    func remove() {
        unlink(url.path)
    }

    /// `text` with the copy's path named as standard input.
    func naming(_ text: String) -> String {
        text.replacingOccurrences(of: url.path, with: Self.name)
    }
}
