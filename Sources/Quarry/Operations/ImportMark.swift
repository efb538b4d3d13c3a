import Foundation

/// What an import writes as the history author of each chunk it saves, so a later run of the
/// same import knows what is already in the store: a run killed half-way is resumed after the
/// chunks it saved, and a file imported whole is refused instead of duplicated.
///
/// The author reads `quarry import <key> chunk <i>/<n> (rows <a>–<b>) of <file name>`, where
/// the key ties the chunk to one import: the file's content (its size and SHA-256 over its
/// first and last 64 KiB, so a file is not hashed whole at every run), the entity, and the
/// chunk size (the chunks' bounds depend on it). A file changed only in its middle, size
/// kept, counts as the same file.
///
/// Only a store that records history keeps marks (a JSON store does not: its imports are
/// neither resumed nor refused).
struct ImportMark: Sendable {
    /// The part of the author every chunk of this import shares.
    let prefix: String
    /// The file's name, for the author and messages.
    let fileName: String

    /// The mark of importing `bytes` (the file at `file`) into `entity` in chunks of `chunkSize`.
    init(bytes: UnsafeRawBufferPointer, file: String, entity: String, chunkSize: Int) {
        let sample = 64 << 10
        var head = Array(bytes.prefix(sample))
        head += Array(bytes.suffix(min(sample, max(0, bytes.count - sample))))
        head += Array(String(bytes.count).utf8)
        let digest = SHA256.hex(head).prefix(16)
        prefix = "quarry import \(digest):\(entity):\(chunkSize) chunk "
        fileName = URL(fileURLWithPath: file).lastPathComponent
    }

    /// The author of chunk `index` (from 1) of `count`, holding rows `rows`.
    func author(chunk index: Int, of count: Int, rows: ClosedRange<Int>) -> String {
        "\(prefix)\(index)/\(count) (rows \(rows.lowerBound)–\(rows.upperBound)) of \(fileName)"
    }

    /// The chunks (from 1) that `authors` (history authors starting with ``prefix``) say were saved.
    func savedChunks(in authors: [String]) -> Set<Int> {
        Set(authors.compactMap { author in
            guard author.hasPrefix(prefix) else { return nil }
            return author.dropFirst(prefix.count).split(separator: "/").first.flatMap { Int($0) }
        })
    }
}
