// The URLSession names with only Foundation and LifelineKit imported, as a tracker's iOS source
// imports Foundation alone: they are LifelineKit's, and `URLRequest` is Foundation's (from
// FoundationNetworking on Linux, through LifelineKit's alias). `URLSessionKitTests.swift`
// compiles the same names with FoundationNetworking imported too.
import Foundation
import LifelineKit
import Testing

/// A delegate declared as a tracker declares it.
final class NameCheckDelegate: NSObject, URLSessionTaskDelegate {}

@Suite("LifelineKit: URLSession's names beside Foundation")
struct URLSessionNameTests {
    @Test("with Foundation and LifelineKit imported, URLSession and its kin are LifelineKit's")
    func namesAreLifelineKits() {
        let configuration = URLSessionConfiguration.background(withIdentifier: "names")
        configuration.isDiscretionary = true
        let session = URLSession(
            configuration: configuration, delegate: NameCheckDelegate(), delegateQueue: nil)
        let request = URLRequest(url: URL(string: "https://example.com")!)
        #expect(String(reflecting: type(of: session)) == "LifelineKit.URLSession")
        #expect(String(reflecting: URLSessionUploadTask.self) == "LifelineKit.URLSessionUploadTask")
        #expect(session.configuration.identifier == "names")
        #expect(session.configuration.sessionSendsLaunchEvents, "true by default")
        #expect(request.url?.host == "example.com")
    }
}
