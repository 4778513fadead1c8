// Policy files: a preset and overrides by property name; unknown keys, wrong types and
// impossible values are errors naming the file, the line and the key.
import Simulation
import Testing
@testable import World

@Suite("Policy files")
struct PolicyFileTests {
    @Test("a preset and overrides are applied in that order")
    func overrides() throws {
        let policy = try IOSPolicy.parse(
            """
            {
              "whenInUseGrace": "5s",
              "preset": "iOS18",
              "regionExitCushionMeters": 150,
              "forceQuitRelaunchByRegion": false,
              "regionCountMax": 10
            }
            """, path: "p.json")
        #expect(policy.name == "iOS18")
        #expect(policy.whenInUseGrace == .seconds(5))
        #expect(policy.regionExitCushionMeters == 150)
        #expect(!policy.forceQuitRelaunchByRegion && policy.forceQuitRelaunchBySignificantChange)
        #expect(policy.regionCountMax == 10)
    }

    @Test("every property can be set from a file, and each key names a real property")
    func everyField() throws {
        #expect(IOSPolicy.fields.count == Set(IOSPolicy.fields.map(\.key)).count)
        let policy = try IOSPolicy.parse(
            #"{"deniedSignalDelay": "3s", "fixInterval": "500ms", "backgroundTaskEarlyExpiryPercent": 50}"#,
            path: "p.json")
        #expect(policy.deniedSignalDelay == .seconds(3) && policy.fixInterval == .milliseconds(500))
        #expect(policy.backgroundTaskEarlyExpiryPercent == 50)
    }

    @Test(
        "bad files are errors naming the line and the key",
        arguments: [
            ("{\n  \"whenInUseGrac\": \"5s\"\n}", 2, "unknown key 'whenInUseGrac'"),
            ("{\n  \"whenInUseGrace\": 5\n}", 2, "'whenInUseGrace' expects a duration string"),
            ("{\n\n  \"regionExitLatency\": \"-5s\"\n}", 3, "(not negative), got \"-5s\""),
            ("{\"regionExitCushionMeters\": -1}", 1, "must be a number at least 0"),
            ("{\"forceQuitRelaunchByRegion\": 1}", 1, "expects true or false, got a number"),
            ("{\"regionCountMax\": 2.5}", 1, "must be a whole number"),
            ("{\"backgroundTaskEarlyExpiryPercent\": 101}", 1, "from 0 to 100"),
            ("{\"preset\": \"iOS99\"}", 1, "'preset' expects one of measured, iOS16"),
            ("{\"fixInterval\": \"0s\"}", 1, "'fixInterval' must be longer than 0s"),
            ("{\"wifiAccuracyMetersMin\": 90}", 1, "must not exceed 'wifiAccuracyMetersMax'"),
            ("{\n  \"a\": 1,\n  \"a\": 2\n}", 3, "appears twice"),
            ("{\n  \"whenInUseGrace\": \"5s\"", 2, "not a policy file"),
            ("[1, 2]", 1, "expected '{'"),
            ("{\"whenInUseGrace\": {\"seconds\": 5}}", 1, "not a nested object"),
        ] as [(String, Int, String)])
    func badFiles(text: String, line: Int, message: String) {
        #expect {
            try IOSPolicy.parse(text, path: "bad.json")
        } throws: { error in
            guard let error = error as? PolicyFileError else { return false }
            return error.path == "bad.json" && error.line == line
                && error.description.contains(message)
        }
    }

    @Test("presets differ where the sources say iOS generations differ")
    func presets() {
        #expect(IOSPolicy.presetNames.compactMap(IOSPolicy.preset(named:)).count == 5)
        #expect(
            [IOSPolicy.iOS16, .iOS17, .iOS18, .iOS26, .measured].map(\.systemVersion) == [
                16, 17, 18, 26, 27,
            ])
        #expect(
            IOSPolicy.iOS16.forceQuitRelaunchByRegion && !IOSPolicy.iOS26.forceQuitRelaunchByRegion)
        #expect(
            IOSPolicy.measured.rebootRelaunchWithoutMovement
                && !IOSPolicy.iOS26.rebootRelaunchWithoutMovement)
    }
}
