import Testing
@testable import Quarry
@Test func smoke() { #expect(QuarryVersion.string == "0.1.0") }
