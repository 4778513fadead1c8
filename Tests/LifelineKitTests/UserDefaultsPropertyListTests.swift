// UserDefaults with every property-list type: a `Codable` kept as `Data`, dates, URLs, arrays
// and dictionaries (nested) outlive the process in the saved record, suites hold them too, and
// every change posts `UserDefaults.didChangeNotification`.
import Foundation
import LifelineKit
import Simulation
import Testing
import World

import class LifelineKit.NotificationCenter
import class LifelineKit.UserDefaults

/// Settings as apps keep them: a `Codable` encoded as `Data`.
struct StoredSettings: Codable, Equatable {
    var sharing: Bool
    var recipients: [String]
}

@Suite("UserDefaults holds every property-list type")
struct UserDefaultsPropertyListTests {
    /// The notes the test's code made, without `DefaultsApp`'s lifecycle notes.
    static func ownNotes(_ journal: Journal) -> [String] {
        let lifecycle = [
            "did become active", "will resign active", "did enter background",
            "will enter foreground", "will terminate",
        ]
        return journal.notes.filter { note in !lifecycle.contains { note.hasSuffix($0) } }
    }

    static let date = Date(timeIntervalSinceReferenceDate: 790_000_000.25)

    /// Notes what `defaults` reads for each key, in one line per key.
    static func readings(_ defaults: UserDefaults) -> [String] {
        let settings = defaults.data(forKey: "settings").flatMap {
            try? JSONDecoder().decode(StoredSettings.self, from: $0)
        }
        let nested = defaults.dictionary(forKey: "nested")
        let inner = nested?["inner"] as? [Any]
        return [
            "settings \(settings.map { "\($0.sharing) \($0.recipients)" } ?? "nil")",
            "date \((defaults.object(forKey: "date") as? Date)?.timeIntervalSinceReferenceDate ?? -1)",
            "url \(defaults.url(forKey: "url")?.absoluteString ?? "nil")",
            "path \(defaults.url(forKey: "path")?.path ?? "nil")",
            "array \(defaults.array(forKey: "array")?.count ?? -1) \(defaults.stringArray(forKey: "array") ?? [])",
            "nested \(nested?["count"] as? Int ?? -1) \(inner?.count ?? -1) \((inner?.last as? Data)?.count ?? -1)",
            "missing \(defaults.data(forKey: "nested") == nil) \(defaults.array(forKey: "date") == nil)",
        ]
    }

    @Test("a Codable as Data, a Date, a URL, an array and a nested dictionary outlive the process")
    func propertyListValuesOutliveTheProcess() throws {
        let (world, journal) = runDefaultsApp(
            until: 120, actions: [(0, .open), (30, .forceQuit), (60, .open)]
        ) { journal in
            let defaults = UserDefaults.standard
            if journal.launches == 1 {
                let settings = StoredSettings(sharing: true, recipients: ["ana", "ben"])
                defaults.set(try? JSONEncoder().encode(settings), forKey: "settings")
                defaults.set(Self.date, forKey: "date")
                defaults.set(URL(string: "https://example.com/share?id=1"), forKey: "url")
                defaults.set("/var/mobile/x.json", forKey: "path")
                defaults.set(["a", "b"], forKey: "array")
                defaults.set(
                    ["count": 2, "inner": [1.5, "two", Data([1, 2, 3])]] as [String: Any],
                    forKey: "nested")
            }
            for line in Self.readings(defaults) { journal.note("\(journal.launches): \(line)") }
        }
        let expected = [
            "settings true [\"ana\", \"ben\"]", "date 790000000.25",
            "url https://example.com/share?id=1", "path /var/mobile/x.json",
            "array 2 [\"a\", \"b\"]", "nested 2 3 3", "missing true true",
        ]
        #expect(Self.ownNotes(journal) == expected.map { "1: " + $0 } + expected.map { "2: " + $0 })
        #expect(world.savedRecordOnDisk["date"] == .date(790_000_000.25))
        #expect(world.savedRecordOnDisk["array"] == .array([.string("a"), .string("b")]))
        let settings = try #require(world.savedRecordOnDisk["settings"])
        guard case .data(let bytes) = settings else {
            Issue.record("the settings are Data on disk: \(settings)")
            return
        }
        let decoded = try JSONDecoder().decode(StoredSettings.self, from: Data(bytes))
        #expect(decoded == StoredSettings(sharing: true, recipients: ["ana", "ben"]))
    }

    @Test("a suite (an app group's) holds Data apart from the app's own domain")
    func suitesHoldData() {
        let (_, journal) = runDefaultsApp(until: 30, actions: [(0, .open)]) { journal in
            let group = UserDefaults(suiteName: "group.example.sharer")
            group?.set(Data([9, 8]), forKey: "token")
            journal.note("group \(group?.data(forKey: "token") == Data([9, 8]))")
            journal.note("standard \(UserDefaults.standard.data(forKey: "token") == nil)")
        }
        #expect(Self.ownNotes(journal) == ["group true", "standard true"])
    }

    @Test("every change posts UserDefaults.didChangeNotification from the object changed")
    func changesArePosted() {
        let (_, journal) = runDefaultsApp(until: 30, actions: [(0, .open)]) { journal in
            let defaults = UserDefaults.standard
            let token = NotificationCenter.default.addObserver(
                forName: UserDefaults.didChangeNotification, object: nil, queue: .main
            ) { notification in
                journal.note("changed \(notification.object as? UserDefaults === defaults)")
            }
            defaults.set(Data([1]), forKey: "a")
            defaults.set(true, forKey: "b")
            defaults.removeObject(forKey: "a")
            NotificationCenter.default.removeObserver(token)
            defaults.set(1, forKey: "c")
        }
        #expect(Self.ownNotes(journal) == ["changed true", "changed true", "changed true"])
        #expect(
            UserDefaults.didChangeNotification.rawValue == "NSUserDefaultsDidChangeNotification")
    }

    @Test("the saved record shows its values in key order, whatever the dictionary's")
    func descriptionIsOrdered() {
        let value = SavedValue.dictionary(["b": .int(2), "a": .data([1, 2]), "c": .date(1)])
        #expect(value.description == "[a: <2 bytes>, b: 2, c: date 1.000]")
    }
}
