// Flat JSON objects: entries in file order with each key's line and each value's exact type;
// anything else is an error naming its line.
import Formats
import Testing

@Suite("Flat JSON objects")
struct FlatJSONTests {
    @Test("entries keep file order, key lines and exact types")
    func entries() throws {
        let entries = try readFlatJSONObject(
            """
            {
              "b": "5s", "a": 1.5e1,
              "c": true,
              "d": false, "e": null, "f": "x\\n\\"y\\"\\/"
            }
            """)
        #expect(entries.map(\.key) == ["b", "a", "c", "d", "e", "f"])
        #expect(entries.map(\.line) == [2, 2, 3, 4, 4, 4])
        #expect(
            entries.map(\.value) == [
                .string("5s"), .number(15), .bool(true), .bool(false), .null, .string("x\n\"y\"/"),
            ])
        #expect(
            entries.map(\.value.kind) == [
                "a string", "a number", "true or false", "true or false", "null", "a string",
            ])
        #expect(try readFlatJSONObject(" {} ").isEmpty)
    }

    @Test(
        "what is not a flat object is an error naming its line",
        arguments: [
            ("[1, 2]", 1, "expected '{' to open the object"),
            ("{\n  \"a\": 1,\n  \"a\": 2\n}", 3, "the key 'a' appears twice"),
            (
                "{\n  \"a\": \"5s\"", 2,
                "expected ',' or '}' after the value of 'a' (the file ends here)"
            ),
            (
                "{\"a\": {\"seconds\": 5}}", 1,
                "the value of 'a' must be a string, number or boolean, not a nested object or array"
            ),
            (
                "{\"a\": [5]}", 1,
                "the value of 'a' must be a string, number or boolean, not a nested object or array"
            ),
            ("{\n\n  a: 1}", 3, "expected a quoted key"),
            ("{\"a\" 1}", 1, "expected ':' after the key 'a'"),
            ("{\"a\": tru}", 1, "expected true"),
            ("{\"a\": -}", 1, "expected a value for 'a'"),
            ("{\"a\": \"x\ny\"}", 1, "a string does not end on its line"),
            ("{\"a\": \"\\u0041\"}", 1, "unsupported escape in a string"),
            ("{\"a\": 1}\n{}", 2, "expected nothing after the object"),
        ] as [(String, Int, String)])
    func errors(text: String, line: Int, message: String) {
        #expect {
            try readFlatJSONObject(text)
        } throws: { error in
            guard let error = error as? FlatJSONError else { return false }
            return error.line == line && error.message == message
                && error.description == "line \(line): \(message)"
        }
    }
}
