/// Reads ASCII fields from a byte buffer, front to back.
struct ImportByteCursor {
    private let text: UnsafeRawBufferPointer
    private var i = 0

    init(_ text: UnsafeRawBufferPointer) { self.text = text }

    var atEnd: Bool { i >= text.count }

    /// Skips `ascii` when it is next.
    mutating func skip(_ ascii: Unicode.Scalar) -> Bool {
        guard i < text.count, text[i] == UInt8(ascii: ascii) else { return false }
        i += 1
        return true
    }

    /// Exactly `width` decimal digits as a number.
    mutating func number(_ width: Int) -> Int? {
        guard i + width <= text.count else { return nil }
        var v = 0
        for k in i..<(i + width) {
            let b = text[k]
            guard b >= 48, b <= 57 else { return nil }
            v = v * 10 + Int(b - 48)
        }
        i += width
        return v
    }

    /// One or more digits after a decimal point, as a fraction.
    mutating func fraction() -> Double? {
        var value = 0.0, scale = 0.1
        let first = i
        while i < text.count, text[i] >= 48, text[i] <= 57 {
            value += Double(text[i] - 48) * scale
            scale /= 10
            i += 1
        }
        return i > first ? value : nil
    }

    /// Skips decimal digits; returns how many.
    mutating func digits() -> Int {
        let first = i
        while i < text.count, text[i] >= 48, text[i] <= 57 { i += 1 }
        return i - first
    }
}
