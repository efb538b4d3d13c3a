import Foundation
import Testing
@testable import Quarry

/// The expressions of batch updates: parsing (precedence, errors with columns), writing back,
/// and the semantics every store shares.
@Suite("Value expressions")
struct ValueExpressionTests {
    func value(_ source: String, _ row: [String: Value] = [:], now: Date = Date(timeIntervalSinceReferenceDate: 0)) throws -> Value {
        try ValueExpression(parsing: source).evaluate({ row[$0] ?? .null }, now: now)
    }

    @Test("precedence, signs and parentheses; the description reads back as the same expression")
    func parsing() throws {
        let e = try ValueExpression(parsing: "price * 1.1 + -volume / (2 - x)")
        #expect(e == .arithmetic(.add,
                                 .arithmetic(.multiply, .key("price"), .constant(.double(1.1))),
                                 .arithmetic(.divide, .negate(.key("volume")), .arithmetic(.subtract, .constant(.integer(2)), .key("x")))))
        #expect(e.description == "(price * 1.1) + (-volume / (2 - x))")
        for source in ["price * 1.1 + -volume / (2 - x)", "uppercase(`a name`)", "coalesce(note, 'none', nil)", "price - -1", "now()",
                       "concat(a, 'it\\'s')", "a - (b - c)", "(a + b) * c"] {
            let parsed = try ValueExpression(parsing: source)
            #expect(try ValueExpression(parsing: parsed.description) == parsed, "\(source) → \(parsed.description)")
        }
        #expect(try ValueExpression(parsing: "a - b - c") == .arithmetic(.subtract, .arithmetic(.subtract, .key("a"), .key("b")), .key("c")))
        #expect(try ValueExpression(parsing: "price-1") == .arithmetic(.subtract, .key("price"), .constant(.integer(1))))
        #expect(try ValueExpression(parsing: "2 * -3") == .arithmetic(.multiply, .constant(.integer(2)), .constant(.integer(-3))))
        #expect(try ValueExpression(parsing: "a + b * c").keys == ["a", "b", "c"])
    }

    @Test("bad input names the column at fault")
    func errors() {
        func message(_ source: String) -> String {
            do { _ = try ValueExpression(parsing: source); return "parsed" } catch { return "\(error)" }
        }
        #expect(message("price *") == "unexpected 'end' at column 8, expected a value, a key, a function or '('")
        #expect(message("(price + 1") == "unexpected 'end' at column 11, expected ')'")
        #expect(message("price 2") == "unexpected '2' at column 7, expected an operator or the end")
        #expect(message("round(a, b)") == "unexpected 'round' at column 1, expected 1 argument(s) to round, not 2")
        #expect(message("min(a)").contains("at least 2 argument(s) to min"))
        #expect(message("'open").contains("unterminated string starting at column 1"))
        #expect(message(String(repeating: "(", count: 200) + "1" + String(repeating: ")", count: 200)).contains("nest"))
        var assignments = try? ValueExpressionParser("a = 1, b 2")
        #expect(throws: QueryError.self) { _ = try assignments?.parseAssignments() }
    }

    @Test("numbers: integers stay exact and overflow is an error, / gives a double, decimals stay decimal")
    func numbers() throws {
        #expect(try value("a + 2 * 3", ["a": .integer(1)]) == .integer(7))
        #expect(try value("7 / 2") == .double(3.5))
        #expect(try value("a * 1.5", ["a": .integer(3)]) == .double(4.5))
        #expect(try value("a * 3", ["a": .decimal(Decimal(string: "1.10")!)]) == .decimal(Decimal(string: "3.30")!))
        #expect(try value("a / 4", ["a": .decimal(Decimal(1))]) == .decimal(Decimal(string: "0.25")!))
        #expect(try value("a + 0.5", ["a": .decimal(Decimal(1))]) == .double(1.5), "a double makes the result a double")
        #expect(throws: ValueExpressionError("integer overflow: 9223372036854775807 + 1")) { try value("a + 1", ["a": .integer(.max)]) }
        #expect(throws: ValueExpressionError.self) { try value("-a", ["a": .integer(.min)]) }
        #expect(throws: ValueExpressionError("division by zero: 1 / 0")) { try value("1 / 0") }
        #expect(try value("round(2.5)") == .double(3) && value("round(-2.5)") == .double(-3) && value("floor(-2.5)") == .double(-3))
        #expect(try value("ceiling(a)", ["a": .decimal(Decimal(string: "1.2")!)]) == .decimal(Decimal(2)))
        #expect(try value("abs(a)", ["a": .integer(-4)]) == .integer(4) && value("round(a)", ["a": .integer(5)]) == .integer(5))
        #expect(try value("max(a, 2.5)", ["a": .integer(3)]) == .double(3), "mixed numbers give the widest kind")
        #expect(try value("min(a, 2)", ["a": .integer(3)]) == .integer(2))
    }

    @Test("nil in, nil out (except coalesce); strings and dates")
    func nilsStringsDates() throws {
        #expect(try value("a + 1") == .null)
        #expect(try value("uppercase(a)") == .null)
        #expect(try value("coalesce(a, b, 3)", ["b": .integer(2)]) == .integer(2))
        #expect(try value("uppercase(a) + '!'", ["a": .string("straße")]) == .string("STRASSE!"))
        #expect(try value("trim(a)", ["a": .string("  x \n")]) == .string("x"))
        #expect(try value("length(a)", ["a": .string("é👍")]) == .integer(2), "characters, not bytes")
        #expect(try value("concat(a, '-', b)", ["a": .string("x"), "b": .string("y")]) == .string("x-y"))
        let t = Date(timeIntervalSinceReferenceDate: 1_000)
        #expect(try value("a + 60", ["a": .date(t)]) == .date(t.addingTimeInterval(60)))
        #expect(try value("a - b", ["a": .date(t), "b": .date(t.addingTimeInterval(-5))]) == .double(5))
        #expect(try value("now()", now: t) == .date(t))
        #expect(throws: ValueExpressionError.self) { try value("a * 2", ["a": .string("x")]) }
    }

    @Test("the static check refuses what can never be computed, before any object is read")
    func kinds() throws {
        func kind(_ source: String, _ keys: [String: ValueKind]) throws -> ValueKind {
            try ValueExpression(parsing: source).kind { keys[$0]! }
        }
        #expect(try kind("a * 2", ["a": .integer]) == .integer)
        #expect(try kind("a / 2", ["a": .integer]) == .double)
        #expect(try kind("a / 2", ["a": .decimal]) == .decimal)
        #expect(try kind("a + 1", ["a": .date]) == .date)
        #expect(try kind("coalesce(a, nil)", ["a": .string]) == .string)
        #expect(throws: ValueExpressionError("cannot multiply a string and a integer")) { try kind("a * 2", ["a": .string]) }
        #expect(throws: ValueExpressionError("coalesce needs values of one kind, not string and integer")) { try kind("coalesce(a, 1)", ["a": .string]) }
        #expect(throws: ValueExpressionError("cannot negate a boolean")) { try kind("-a", ["a": .boolean]) }
        #expect(throws: ValueExpressionError("cannot add a date and a string")) { try kind("a + 'x'", ["a": .date]) }
        #expect(throws: ValueExpressionError("cannot add a date and a boolean")) { try kind("a + b", ["a": .date, "b": .boolean]) }
        #expect(ValueKind.integer.fits(.double) && ValueKind.double.fits(.integer16) && !ValueKind.string.fits(.date) && ValueKind.null.fits(.date))
    }
}
