import CZlib
import Foundation

/// Raw DEFLATE (RFC 1951, no zlib or gzip header) through the system zlib, with a bound on the
/// output so a tiny input that expands enormously (a "zip bomb") is refused instead of
/// exhausting memory.
enum RawInflate {
    /// The default output bound: a real model cache is tens of kilobytes.
    static let defaultLimit = 64 << 20

    /// Inflates `input`, a complete raw DEFLATE stream.
    /// - Throws: ``CoreDataModelCacheError/truncatedDeflate(consumed:)`` when the stream ends
    ///   early, ``CoreDataModelCacheError/corruptDeflate(reason:)`` when it is invalid, and
    ///   ``CoreDataModelCacheError/inflatedTooLarge(limit:)`` past `limit` output bytes.
    static func inflate(_ input: Data, limit: Int = defaultLimit) throws(CoreDataModelCacheError) -> Data {
        var stream = z_stream()
        // Negative window bits: raw DEFLATE, no header or checksum (what Core Data writes).
        guard quarry_inflateInit2(&stream, -15) == Z_OK else {
            throw .corruptDeflate(reason: "zlib could not start (out of memory)")
        }
        defer { inflateEnd(&stream) }
        var output = Data()
        let chunkSize = 64 << 10
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        let bytes = [UInt8](input)
        var result: Result<Data, CoreDataModelCacheError> = .failure(.truncatedDeflate(consumed: 0))
        bytes.withUnsafeBufferPointer { inBuffer in
            // zlib never writes through next_in; its C type is merely not const.
            stream.next_in = UnsafeMutablePointer(mutating: inBuffer.baseAddress)
            stream.avail_in = uInt(inBuffer.count)
            while true {
                let status = chunk.withUnsafeMutableBufferPointer { outBuffer -> Int32 in
                    stream.next_out = outBuffer.baseAddress
                    stream.avail_out = uInt(chunkSize)
                    return CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunkSize - Int(stream.avail_out)
                if output.count + produced > limit {
                    result = .failure(.inflatedTooLarge(limit: limit))
                    return
                }
                output.append(contentsOf: chunk[0..<produced])
                switch status {
                case Z_STREAM_END:
                    result = .success(output)
                    return
                case Z_OK:
                    continue
                case Z_BUF_ERROR where stream.avail_in == 0:
                    result = .failure(.truncatedDeflate(consumed: inBuffer.count))
                    return
                default:
                    let message = stream.msg.map { String(cString: $0) } ?? "zlib status \(status)"
                    result = .failure(.corruptDeflate(reason: message))
                    return
                }
            }
        }
        return try result.get()
    }
}
