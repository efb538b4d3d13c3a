/// A horizontal bar drawn in cells with Unicode eighth blocks (`█▉▊▋▌▍▎▏`), so a bar's length
/// shows eight steps per cell. The backend draws each block as `#` (a full one) or `+` (a
/// partial one) in a non-UTF-8 locale (``QuarryTUI/AsciiFallback``), keeping the width.
enum FrequencyBar {
    /// The partial blocks, one eighth to seven eighths.
    private static let partials: [Character] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    /// The bar for `value` of `maximum`, at most `width` cells (the maximum fills them); a
    /// non-zero value shows at least one eighth.
    static func text(value: Int64, maximum: Int64, width: Int) -> String {
        guard width > 0, maximum > 0, value > 0 else { return "" }
        let eighths = max(1, Int((Double(min(value, maximum)) / Double(maximum) * Double(width * 8)).rounded()))
        var bar = String(repeating: "█", count: eighths / 8)
        if eighths % 8 > 0 { bar.append(partials[eighths % 8 - 1]) }
        return bar
    }
}
