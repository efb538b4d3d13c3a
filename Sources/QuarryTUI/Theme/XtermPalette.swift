/// The xterm colour palette, for mapping colours a terminal cannot show to ones it can.
///
/// Indices 0–15 are xterm's default ANSI colours (a user's terminal may redefine them, so they are
/// only a target when nothing better exists); 16–231 are the 6×6×6 colour cube; 232–255 are the
/// grey ramp. "Nearest" means the smallest squared distance in RGB; ties go to the lower index.
package enum XtermPalette {
    /// A 24-bit colour as three channel values 0–255.
    package struct RGB: Hashable, Sendable {
        package var red: Int
        package var green: Int
        package var blue: Int

        package init(_ red: Int, _ green: Int, _ blue: Int) {
            self.red = red
            self.green = green
            self.blue = blue
        }

        func squaredDistance(to other: RGB) -> Int {
            let (dr, dg, db) = (red - other.red, green - other.green, blue - other.blue)
            return dr * dr + dg * dg + db * db
        }
    }

    /// xterm's default values for the 16 ANSI colours.
    static let ansi: [RGB] = [
        RGB(0, 0, 0), RGB(205, 0, 0), RGB(0, 205, 0), RGB(205, 205, 0),
        RGB(0, 0, 238), RGB(205, 0, 205), RGB(0, 205, 205), RGB(229, 229, 229),
        RGB(127, 127, 127), RGB(255, 0, 0), RGB(0, 255, 0), RGB(255, 255, 0),
        RGB(92, 92, 255), RGB(255, 0, 255), RGB(0, 255, 255), RGB(255, 255, 255),
    ]

    /// The channel values of the colour cube's six steps.
    static let cubeLevels = [0, 95, 135, 175, 215, 255]

    /// The colour of palette entry `index`.
    package static func rgb(ofIndex index: UInt8) -> RGB {
        let index = Int(index)
        switch index {
        case 0..<16:
            return ansi[index]
        case 16..<232:
            let cube = index - 16
            return RGB(cubeLevels[cube / 36], cubeLevels[cube / 6 % 6], cubeLevels[cube % 6])
        default:
            let grey = 8 + 10 * (index - 232)
            return RGB(grey, grey, grey)
        }
    }

    /// The nearest entry of the cube and grey ramp (16–255), which terminals do not redefine.
    package static func nearestIndexed(to color: RGB) -> UInt8 {
        nearest(to: color, among: 16...255)
    }

    /// The nearest of the 16 ANSI colours.
    package static func nearestANSI(to color: RGB) -> UInt8 {
        nearest(to: color, among: 0...15)
    }

    private static let palette: [RGB] = (0...255).map { rgb(ofIndex: UInt8($0)) }

    private static func nearest(to color: RGB, among indices: ClosedRange<Int>) -> UInt8 {
        var best = indices.lowerBound
        var bestDistance = Int.max
        for index in indices {
            let distance = palette[index].squaredDistance(to: color)
            if distance < bestDistance {
                best = index
                bestDistance = distance
            }
        }
        return UInt8(best)
    }
}
