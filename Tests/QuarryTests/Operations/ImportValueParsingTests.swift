import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

@Suite("Import: values parsed by the model's attribute types")
struct ImportValueParsingTests {
    /// Imports one company with `column` = `text` (CSV) and returns the stored value, or the error message.
    func importOne(_ column: String, _ text: String) throws -> Result<Value, ImportRowError> {
        let f = try ImportFixture()
        let result = f.importText("name,\(column)\nAcme,\(text)\n")
        if let error = result.rowErrors.first { return .failure(error) }
        return .success(try f.rows().first?[column] ?? .null)
    }

    func value(_ column: String, _ text: String) throws -> Value? { try importOne(column, text).get() }
    func message(_ column: String, _ text: String) throws -> String? {
        if case .failure(let e) = try importOne(column, text) { return e.message }
        return nil
    }

    @Test("integers are range-checked per width")
    func integers() throws {
        #expect(try value("employees", "32767") == .integer(32767))
        #expect(try value("employees", "-32768") == .integer(-32768))
        #expect(try message("employees", "32768") == "'employees': '32768' is out of range for Integer 16 (-32768…32767)")
        #expect(try value("revenue", "2147483647") == .integer(2_147_483_647))
        #expect(try message("revenue", "2147483648")?.contains("out of range for Integer 32") == true)
        #expect(try value("big", "-9223372036854775808") == .integer(.min))
        #expect(try message("big", "9223372036854775808") == "'big': '9223372036854775808' is not an integer")
        #expect(try message("employees", "1.5") == "'employees': '1.5' is not an integer")
    }

    @Test("doubles, floats and exact decimals")
    func numbers() throws {
        #expect(try value("price", "1e3") == .double(1000))
        #expect(try value("price", "-0.25") == .double(-0.25))
        #expect(try message("price", "abc") == "'price': 'abc' is not a number")
        #expect(try value("ratio", "0.1") == .double(Double(Float(0.1))))
        #expect(try message("ratio", "1e300") == "'ratio': '1e300' is out of range for Float")
        #expect(try value("exact", "12345678901234567890.123456789") == .decimal(Decimal(string: "12345678901234567890.123456789")!))
        #expect(try message("exact", "1.2.3") == "'exact': '1.2.3' is not a decimal number")
    }

    @Test("booleans read true/false, 1/0 and yes/no in any case")
    func booleans() throws {
        for (text, expected) in [("true", true), ("FALSE", false), ("1", true), ("0", false), ("Yes", true), ("no", false)] {
            #expect(try value("listed", text) == .bool(expected), "\(text)")
        }
        #expect(try message("listed", "maybe") == "'listed': 'maybe' is not a Boolean (true/false, 1/0, yes/no)")
    }

    @Test("dates are ISO 8601 with or without time, fraction and zone (no zone: UTC)")
    func dates() throws {
        let base = Date(timeIntervalSince1970: 1_700_000_000)  // 2023-11-14T22:13:20Z
        #expect(try value("founded", "2023-11-14T22:13:20Z") == .date(base))
        #expect(try value("founded", "2023-11-14T22:13:20") == .date(base))
        #expect(try value("founded", "2023-11-14 22:13:20.5") == .date(base.addingTimeInterval(0.5)))
        #expect(try value("founded", "2023-11-15T00:13:20+02:00") == .date(base))
        #expect(try value("founded", "2023-11-14T20:13:20-0200") == .date(base))
        #expect(try value("founded", "2023-11-14T22:13Z") == .date(base.addingTimeInterval(-20)))
        #expect(try value("founded", "1970-01-01") == .date(Date(timeIntervalSince1970: 0)))
        #expect(try value("founded", "2024-02-29") == .date(Date(timeIntervalSince1970: 1_709_164_800)))
        #expect(try message("founded", "2023-02-29")?.contains("is not an ISO 8601 date") == true)
        #expect(try message("founded", "14/11/2023")?.contains("is not an ISO 8601 date") == true)
    }

    @Test("UUIDs, URIs, base64 binary and JSON transformables")
    func otherTypes() throws {
        let uuid = UUID()
        #expect(try value("id", uuid.uuidString) == .uuid(uuid))
        #expect(try message("id", "not-a-uuid") == "'id': 'not-a-uuid' is not a UUID")
        #expect(try value("site", "https://example.com/a?b=c") == .uri(URL(string: "https://example.com/a?b=c")!))
        #expect(try value("logo", "AAEC/w==") == .data(Data([0, 1, 2, 255])))
        #expect(try message("logo", "***") == "'logo': '***' is not base64")
        #expect(try value("extra", "\"{\"\"a\"\":[1,true]}\"") == .json(.object(["a": .array([.number(1), .bool(true)])])))
        #expect(try message("extra", "{oops") == "'extra': '{oops' is not JSON")
    }

    @Test("model rules (minimum, maximum, pattern, required) are checked before anything is written")
    func modelRules() throws {
        #expect(try message("rating", "6") == "'rating' value 6 is above the maximum 5")
        #expect(try message("code", "abcd") == "'code' 'abcd' does not match /[A-Z]{3}/")
        let f = try ImportFixture()
        let result = f.importText("name,code\n,ABC\n")
        #expect(result.rowErrors.map(\.description) == ["\(f.directory.file("data.csv").path):2:1: 'name' is required"])
    }
}
