// The device's files (`DeviceFiles`): where each path goes, data protection by class and
// device state (R-S4, R-S5, R-S6), and the private folder's lifetime.
import Foundation
import Testing

@testable import World

@Suite("The device's files")
struct DeviceFilesTests {
    static let container = DeviceFiles.containerPath

    @Test("R-S4, R-S5: each protection class's files are readable and writable as iOS allows")
    func protectionClasses() {
        // (first unlocked, locked) -> (read, write) for each class.
        let expected: [FileProtection: [[Bool]]] = [
            .none: [[true, true], [true, true], [true, true]],
            .completeUntilFirstUserAuthentication: [[false, false], [true, true], [true, true]],
            .completeUnlessOpen: [[false, false], [false, true], [true, true]],
            .complete: [[false, false], [false, false], [true, true]],
        ]
        let states = [(false, true), (true, true), (true, false)]
        for protection in FileProtection.allCases {
            let found = states.map { firstUnlocked, locked in
                [false, true].map {
                    protection.isAvailable(
                        writing: $0, firstUnlocked: firstUnlocked, locked: locked)
                }
            }
            #expect(found == expected[protection], "\(protection)")
        }
    }

    @Test(
        "R-S6: a protected file's open is refused with EPERM; its metadata and folders stay readable"
    )
    func refusedWithEPERM() throws {
        let files = DeviceFiles()
        let path = Self.container + "/Documents/a.txt"
        guard case .privatePath(let privatePath) = files.route(path, access: .writeContents) else {
            Issue.record("a write to the container is routed")
            return
        }
        try Data("a".utf8).write(to: URL(fileURLWithPath: privatePath))
        files.firstUnlocked = false
        files.locked = true
        #expect(files.route(path, access: .readContents) == .refused(EPERM))
        #expect(files.route(path, access: .writeContents) == .refused(EPERM))
        #expect(files.route(path, access: .metadata) == .privatePath(privatePath))
        #expect(
            files.route(Self.container + "/Documents", access: .readContents)
                != .refused(EPERM), "a folder's listing is metadata")
        files.firstUnlocked = true
        #expect(files.route(path, access: .readContents) == .privatePath(privatePath))
    }

    @Test("a file takes its folder's class; a class set on it wins; iOS's default otherwise")
    func inheritedClass() {
        let files = DeviceFiles()
        let folder = Self.container + "/Library/Application Support/Secret"
        #expect(files.protection(ofPath: folder + "/a") == .completeUntilFirstUserAuthentication)
        files.setProtection(.complete, ofPath: folder)
        #expect(files.protection(ofPath: folder + "/a") == .complete)
        files.setProtection(.none, ofPath: folder + "/b")
        #expect(files.protection(ofPath: folder + "/b") == FileProtection.none)
        files.moveProtections(from: folder + "/b", to: folder + "/c")
        #expect(files.protection(ofPath: folder + "/c") == FileProtection.none)
        #expect(files.protection(ofPath: folder + "/b") == .complete)
    }

    @Test("paths outside the app's containers are refused as the sandbox refuses them, or reported")
    func outsidePaths() {
        let files = DeviceFiles(appGroups: ["group.mine"])
        #expect(files.route("/home/user/a", access: .readContents) == .outside)
        #expect(files.route("relative.txt", access: .readContents) == .outside)
        let other = "/var/mobile/Containers/Data/Application/OTHER/Documents/a"
        #expect(files.route(other, access: .readContents) == .refused(EPERM))
        #expect(
            files.route(Self.container + "/../OTHER/a", access: .writeContents) == .refused(EPERM))
        if case .privatePath = files.route("/var/mobile", access: .metadata) {
        } else {
            Issue.record("the container's parents can be looked at")
        }
        #expect(files.route("/var/mobile/x", access: .changeNames) == .refused(EPERM))
        #expect(files.appGroupPath("group.other") == nil)
        let group = files.appGroupPath("group.mine")!
        if case .privatePath = files.route(group + "/a", access: .writeContents) {
        } else {
            Issue.record("the app's group container is routed")
        }
    }

    @Test("an app group's container path is the same in every run, a UUID made from its identifier")
    func groupPathsAreStable() {
        let first = DeviceFiles().appGroupPath("group.example.sharer")
        #expect(first == DeviceFiles().appGroupPath("group.example.sharer"))
        #expect(first != DeviceFiles().appGroupPath("group.example.other"))
        let uuid = first.map { String($0.split(separator: "/").last!) } ?? ""
        #expect(UUID(uuidString: uuid) != nil, "\(uuid)")
    }

    @Test("the private folder is made on first use, and removed with the device")
    func privateFolderRemoved() throws {
        var files: DeviceFiles? = DeviceFiles()
        guard
            case .privatePath(let privatePath) = files!.route(
                Self.container + "/Documents/x", access: .writeContents)
        else {
            Issue.record("routed")
            return
        }
        let root = String(privatePath.dropLast((Self.container + "/Documents/x").count))
        #expect(FileManager.default.fileExists(atPath: root + Self.container + "/Documents"))
        #expect(!root.hasPrefix(NSHomeDirectory()), "never in the real home folder")
        files = nil
        #expect(!FileManager.default.fileExists(atPath: root))
    }

    @Test("a file's bytes as a row's text: UTF-8 as is, other bytes in Base64")
    func rowText() {
        #expect(DeviceFiles.rowText(Array("héllo".utf8)) == "héllo")
        #expect(DeviceFiles.rowText([0xff, 0x00, 0x10]) == "base64:/wAQ")
        #expect(DeviceFiles.rowText([0xff]) == "base64:/w==")
    }
}
