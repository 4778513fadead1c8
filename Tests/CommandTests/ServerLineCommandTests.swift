// `lifeline run` with a scenario's `server` line: an unknown value exits 2 naming the file,
// line and what was expected; a server that stores every request makes a correct engine's
// retry after a lost answer a duplicate that uploaded-once reports.
import Foundation
import Testing

@Suite("lifeline run: the server line")
struct ServerLineCommandTests {
    @Test("an unknown server value exits 2 with path:line:column and the values expected")
    func unknownValue() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write(
            "bad.scenario",
            """
            engine session
            server dedupes
            horizon 10m
            route
              drive 1m at 13.9 m/s
            end
            """)
        let result = runTool(["run", path])
        #expect(result.code == 2)
        #expect(
            result.error.hasPrefix(
                "lifeline: \(path):2:8: expected the server's deduplication "
                    + "(deduplicates-by-key, stores-every-request), found 'dedupes'"),
            "\(result.error)")
        #expect(result.standard.isEmpty)
    }

    @Test(
        "the session engine passes against either server; the engine that sends no key fails against a deduplicating one"
    )
    func nonDeduplicatingServer() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let text = SampleScenarios.retryWithoutIdempotency(engine: "session")
        let keyed = try folder.write("keyed.scenario", text)
        let passed = runTool(["run", keyed])
        #expect(passed.code == 0, "\(passed.standard)")
        // A server that stores every request stores a retry twice: the server's design (no
        // app that retries can avoid it), not a fault of the app's.
        let stores = try folder.write(
            "stores.scenario",
            text.replacingOccurrences(
                of: "seed 1\n", with: "seed 1\nserver stores-every-request\n"))
        let storesRun = runTool(["run", stores])
        #expect(storesRun.code == 0, "\(storesRun.standard)")
        // The line decides what the server does with the retry: held once, or stored again.
        #expect(passed.standard.contains("completed: accepted (already held)"))
        #expect(!storesRun.standard.contains("(already held)"), "\(storesRun.standard)")
        // A request without a key, to a server that would have recognised one, is the app's.
        let keyless = try folder.write(
            "keyless.scenario",
            SampleScenarios.retryWithoutIdempotency(engine: "retry-without-idempotency"))
        let failed = runTool(["run", keyless])
        #expect(failed.code == 1, "\(failed.error)")
        #expect(failed.standard.hasSuffix("FAIL: uploaded-once\n"), "\(failed.standard)")
        #expect(failed.standard.contains("without an idempotency key"), "\(failed.standard)")
    }
}
