// Numbers as text: fixed notation computed in integers, the same on every platform.
import Testing

@testable import Simulation

@Suite("Number formatting")
struct NumberFormattingTests {
    @Test(
        "fixed notation rounds to the asked decimals, zero decimals included",
        arguments: [
            (0.0, 0, "0"), (99.5, 0, "100"), (12.345, 2, "12.35"), (-0.004, 2, "0.00"),
            (-1.5, 1, "-1.5"),
            (7.05, 3, "7.050"), (1234567.0, 6, "1234567.000000"),
        ] as [(Double, Int, String)])
    func fixedNotation(value: Double, digits: Int, text: String) {
        #expect(PlainText.fixed(value, digits: digits) == text)
    }
}
