import QuarryTUI

/// In the browser, `Key` is a key press (the engine's predicate-builder `Key` is spelled `Quarry.Key`).
typealias Key = QuarryTUI.Key
