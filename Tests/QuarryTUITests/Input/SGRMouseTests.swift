import Foundation
import QuarryTUI
import Testing

/// SGR mouse reports (mode 1006) and the OSC 52 clipboard sequence, without a terminal.
@Suite struct SGRMouseTests {
    @Test(arguments: [
        ("0;12;5M", MouseEvent(.press, x: 11, y: 4)),
        ("0;12;5m", MouseEvent(.release, x: 11, y: 4)),
        ("64;1;1M", MouseEvent(.wheelUp, x: 0, y: 0)),
        ("65;80;24M", MouseEvent(.wheelDown, x: 79, y: 23)),
        ("2;3;4M", MouseEvent(.otherPress, x: 2, y: 3)),
        ("16;3;4M", MouseEvent(.press, x: 2, y: 3)),  // Ctrl-click: modifiers ignored
    ])
    func reportsParse(body: String, expected: MouseEvent) {
        #expect(SGRMouse.parse(body) == expected)
    }

    @Test(arguments: ["", "M", "0;1M", "0;1;2;3M", "0;0;5M", "a;1;1M", "0;1;1", "35;4;4M", "0;99999;1M", "2000;1;1M"])
    func malformedReportsAreNotEvents(body: String) {
        #expect(SGRMouse.parse(body) == nil)
    }

    @Test func aReportRoundTrips() {
        for event in [MouseEvent(.press, x: 0, y: 0), MouseEvent(.release, x: 119, y: 39), MouseEvent(.wheelDown, x: 5, y: 6)] {
            let report = SGRMouse.report(event)
            #expect(report.hasPrefix(SGRMouse.prefix))
            #expect(SGRMouse.parse(String(report.dropFirst(SGRMouse.prefix.count))) == event)
        }
    }

    @Test func theClipboardSequenceCarriesTheTextInBase64() {
        let sequence = ClipboardSequence.make(for: "Ünïcode\tand tabs")
        #expect(sequence == "\u{1B}]52;c;" + Data("Ünïcode\tand tabs".utf8).base64EncodedString() + "\u{07}")
        #expect(ClipboardSequence.text(of: sequence) == "Ünïcode\tand tabs")
        #expect(ClipboardSequence.text(of: "\u{1B}]52;c;!!\u{07}") == nil)
    }

    @Test func theInMemoryTerminalRecordsClipboardSequencesAndDeliversMouseEvents() async throws {
        await MainActor.run {
            let terminal = InMemoryTerminal(size: TerminalSize(width: 80, height: 24))
            var events: [TerminalEvent] = []
            try? terminal.start { events.append($0) }
            terminal.mouse(.press, x: 3, y: 4)
            terminal.copyToClipboard("x")
            #expect(events == [.mouse(MouseEvent(.press, x: 3, y: 4))])
            #expect(terminal.clipboardSequences == [ClipboardSequence.make(for: "x")])
        }
    }
}
