/// The xterm 256-colour palette and nearest-colour lookups into it.
///
/// Used when a 24-bit colour must be shown on a terminal that cannot draw it (the theme loader
/// downgrades colours too; this is the backend's safety net) and to give palette entries an RGB
/// value on direct-colour terminals. Entries 0–15 are the user's own ANSI colours, so RGB
/// colours are only ever mapped into the fixed part of the palette (16–255) when 256 colours are
/// available; the xterm defaults stand in for 0–15 when only 16 are.
package enum XtermPalette {
    /// The six channel levels of the 6×6×6 colour cube (indices 16–231).
    package static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

    /// xterm's default values for the 16 ANSI colours.
    package static let ansiColors: [(UInt8, UInt8, UInt8)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0),
        (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0),
        (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]

    /// The RGB value of palette entry `index`.
    package static func rgb(of index: UInt8) -> (UInt8, UInt8, UInt8) {
        switch index {
        case 0..<16:
            return ansiColors[Int(index)]
        case 16..<232:
            let offset = Int(index) - 16
            return (UInt8(cubeLevels[offset / 36]), UInt8(cubeLevels[offset / 6 % 6]), UInt8(cubeLevels[offset % 6]))
        default:
            let level = UInt8(8 + 10 * (Int(index) - 232))
            return (level, level, level)
        }
    }

    /// The entry of the fixed palette (16–255: cube and grey ramp) nearest to the colour.
    package static func nearestIndex256(red: UInt8, green: UInt8, blue: UInt8) -> UInt8 {
        let target = (Int(red), Int(green), Int(blue))
        let cube = (nearestCubeLevel(target.0), nearestCubeLevel(target.1), nearestCubeLevel(target.2))
        let cubeIndex = 16 + 36 * cube.0 + 6 * cube.1 + cube.2
        let cubeDistance = distance(target, (cubeLevels[cube.0], cubeLevels[cube.1], cubeLevels[cube.2]))

        let average = (target.0 + target.1 + target.2) / 3
        let greyStep = min(23, max(0, (average - 3) / 10))
        let greyLevel = 8 + 10 * greyStep
        let greyDistance = distance(target, (greyLevel, greyLevel, greyLevel))

        return UInt8(greyDistance < cubeDistance ? 232 + greyStep : cubeIndex)
    }

    /// The ANSI colour (0–15, xterm default values) nearest to the colour.
    package static func nearestANSI16(red: UInt8, green: UInt8, blue: UInt8) -> UInt8 {
        let target = (Int(red), Int(green), Int(blue))
        var best = 0
        var bestDistance = Int.max
        for (index, color) in ansiColors.enumerated() {
            let candidate = distance(target, (Int(color.0), Int(color.1), Int(color.2)))
            if candidate < bestDistance {
                best = index
                bestDistance = candidate
            }
        }
        return UInt8(best)
    }

    private static func nearestCubeLevel(_ value: Int) -> Int {
        // Levels are 0, 95, then every 40: the midpoints are 48, 115, 155, 195, 235.
        if value < 48 { return 0 }
        if value < 115 { return 1 }
        return min(5, (value - 35) / 40)
    }

    /// Squared distance weighted by the "redmean" approximation of perceived difference.
    private static func distance(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Int {
        let redMean = (a.0 + b.0) / 2
        let dr = a.0 - b.0, dg = a.1 - b.1, db = a.2 - b.2
        // Swift's >> binds tighter than *: the products are parenthesised before the shift.
        return (((512 + redMean) * dr * dr) >> 8) + 4 * dg * dg + (((767 - redMean) * db * db) >> 8)
    }
}
