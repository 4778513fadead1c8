// The app's files on the simulated device (layer 3): its container and its app groups' at
// fixed device paths, kept in a private folder of their own, with iOS's data protection.
import CVirtualClock
import Foundation

/// A data protection class of a file (`FileProtectionType`'s four, by its raw value). Which
/// class a file has decides when its contents can be read and written (R-S4 to R-S6).
package enum FileProtection: String, Sendable, CaseIterable {
    /// `complete`: readable and writable only while the device is unlocked (R-S5).
    case complete = "NSFileProtectionComplete"
    /// `completeUnlessOpen`: a new file can be made while locked; an existing one is read only
    /// while unlocked (R-S5).
    case completeUnlessOpen = "NSFileProtectionCompleteUnlessOpen"
    /// `completeUntilFirstUserAuthentication`, iOS's default: unreadable from a boot until the
    /// first unlock, then always readable (R-S4).
    case completeUntilFirstUserAuthentication =
        "NSFileProtectionCompleteUntilFirstUserAuthentication"
    /// `none`: always readable.
    case none = "NSFileProtectionNone"

    /// Whether a file of this class can be read (or, `writing`, written or made) now.
    func isAvailable(writing: Bool, firstUnlocked: Bool, locked: Bool) -> Bool {
        switch self {
        case .none: true
        case .completeUntilFirstUserAuthentication: firstUnlocked
        case .completeUnlessOpen: firstUnlocked && (writing || !locked)
        case .complete: firstUnlocked && !locked
        }
    }
}

/// What a C library call does with a path (`VirtualFiles.h`'s `LIFELINE_FILES_*`).
package enum FileAccess: Int32, Sendable {
    case metadata = 0
    case readContents = 1
    case writeContents = 2
    case changeNames = 3
}

/// The simulated device's files: the app's container, at the same device path in every run
/// (`containerPath`, as an iPhone shows it), and its app groups' containers, kept in a private
/// folder made on first use under the real temporary folder and removed with this object. The
/// app process owns it, so it outlives every process of the app and every boot, as a phone's
/// storage does, and a fresh one comes with each world (each fuzz case).
///
/// The app never sees the private folder: `VirtualFiles.c` hands every path-taking C library
/// call of a simulated process to `route(_:access:)`, which answers the private path or
/// refuses the call with the errno iOS gives (docs/files.md):
///
/// - data protection (R-S4, R-S5): a file's contents are unreadable and unwritable while
///   its class (`FileProtection`: its own, else its folder's, else
///   `completeUntilFirstUserAuthentication`) is unavailable: `EPERM`, as Data Protection
///   fails an `open` (R-S6);
/// - outside the app's container and its groups' (another app's, the system's): `EPERM`, as
///   the sandbox refuses it.
///
/// Writes are durable at once: a process that ends loses nothing it wrote (the kernel holds
/// the pages); a power loss is not modelled.
public final class DeviceFiles: @unchecked Sendable {
    /// The app's container, as `NSHomeDirectory()` answers it.
    public static let containerPath =
        "/var/mobile/Containers/Data/Application/6E1C3C52-9F1B-4B2A-8D2E-5A0C1F3B7D90"
    /// Where app groups' containers live.
    static let appGroupsPath = "/var/mobile/Containers/Shared/AppGroup"
    /// The folders of a fresh container, as iOS makes them at install.
    static let containerFolders = [
        "Documents", "Library", "Library/Caches", "Library/Preferences", "tmp",
    ]

    /// The app groups the app may use (its entitlements), nil for any.
    private let appGroups: [String]?
    /// Data is readable: the device has been unlocked since it booted (R-S4).
    package internal(set) var firstUnlocked = true
    /// The screen is locked (R-S5).
    package internal(set) var locked = false
    /// Classes set on files and folders, by device path (looked up, never iterated).
    var protections: [String: FileProtection] = [:]
    /// The private folder, once made.
    private var privateRoot: String?
    /// The rows that mirror the files (`DeviceFiles+Rows.swift`), by device path.
    var mirroredRows: [String: StoredRow] = [:]

    /// A fresh device: an empty container. `appGroups`: the identifiers
    /// `containerURL(forSecurityApplicationGroupIdentifier:)` answers for (nil for any).
    package init(appGroups: [String]? = nil) { self.appGroups = appGroups }

    deinit {
        guard let privateRoot else { return }
        lifeline_vf_enter_own()
        try? Foundation.FileManager.default.removeItem(atPath: privateRoot)
        lifeline_vf_leave_own()
    }

    /// The device path of app group `identifier`'s container (a UUID made from the
    /// identifier, the same in every run), nil when the app may not use it.
    package func appGroupPath(_ identifier: String) -> String? {
        guard appGroups?.contains(identifier) ?? true else { return nil }
        return Self.appGroupsPath + "/" + Self.stableUUID(of: identifier)
    }

    // MARK: - Routing a call

    /// Where a C library call on `path` goes: its private path, or an errno.
    package enum Route: Equatable, Sendable {
        case privatePath(String)
        case refused(Int32)
        /// Not a path of this device at all (the caller reports an escape).
        case outside
    }

    /// Routes a call of kind `access` on the device path `path`.
    package func route(_ path: String, access: FileAccess) -> Route {
        guard let device = Self.normalized(path) else { return .outside }
        if Self.ancestors.contains(device) {
            return access == .metadata ? .privatePath(root() + device) : .refused(EPERM)
        }
        guard isInContainers(device) else {
            // Another app's container or the system's part of the device: the sandbox's refusal.
            return device.hasPrefix("/var/mobile/") ? .refused(EPERM) : .outside
        }
        let privatePath = root() + device
        if access == .readContents || access == .writeContents, !isFolder(privatePath) {
            let writing = access == .writeContents
            let protection = protection(ofPath: device)
            guard
                protection.isAvailable(
                    writing: writing, firstUnlocked: firstUnlocked, locked: locked)
            else { return .refused(EPERM) }
        }
        return .privatePath(privatePath)
    }

    /// The device path of a path the C library handed back (a private one, from `fts`), or
    /// `path` itself.
    package func devicePath(of path: String) -> String {
        guard let privateRoot, path.hasPrefix(privateRoot + "/") else { return path }
        return String(path.dropFirst(privateRoot.count))
    }

    // MARK: - Data protection

    /// The class of the file or folder at `path`: its own, else its nearest folder's, else
    /// iOS's default (R-S4).
    package func protection(ofPath path: String) -> FileProtection {
        var current = Self.normalized(path) ?? path
        while !current.isEmpty {
            if let own = protections[current] { return own }
            guard let slash = current.lastIndex(of: "/") else { break }
            current = String(current[..<slash])
        }
        return .completeUntilFirstUserAuthentication
    }

    /// Sets the class of the file or folder at `path` (`setAttributes`, `createDirectory`'s or
    /// `createFile`'s attributes): a new file made in a folder takes the folder's.
    package func setProtection(_ protection: FileProtection, ofPath path: String) {
        protections[Self.normalized(path) ?? path] = protection
    }

    /// Moves the classes set under `from` to `to` (a rename keeps a file's class).
    func moveProtections(from: String, to: String) {
        // The item at `to` is replaced: its class goes with it.
        let moved = protections.keys.filter { $0 == from || $0.hasPrefix(from + "/") }
        protections[to] = nil
        for path in moved {
            protections[to + path.dropFirst(from.count)] = protections.removeValue(forKey: path)
        }
    }

    // MARK: - The private folder

    /// The private folder, made on first use with the container's folders.
    private func root() -> String {
        if let privateRoot { return privateRoot }
        lifeline_vf_enter_own()
        defer { lifeline_vf_leave_own() }
        let made = Self.makePrivateFolder()
        let manager = Foundation.FileManager.default
        for folder in Self.containerFolders {
            try? manager.createDirectory(
                atPath: made + Self.containerPath + "/" + folder,
                withIntermediateDirectories: true)
        }
        try? manager.createDirectory(
            atPath: made + Self.appGroupsPath, withIntermediateDirectories: true)
        privateRoot = made
        return made
    }

    /// What every process's private folder is called before its process id.
    private static let privateBasePrefix = "lifeline-devices-"

    /// The real folder every device of this process keeps its files in, told to the C side:
    /// `lifeline-devices-PID-XXXXXX` in the temporary folder, removed when the process exits.
    /// A process that is killed (a worker ended for a hang, a test run stopped) cannot remove
    /// its own, so each new one first removes the folders of processes no longer running.
    private static let privateBase: String = {
        lifeline_vf_enter_own()
        defer { lifeline_vf_leave_own() }
        let temporary = Foundation.FileManager.default.temporaryDirectory.path
        removeFoldersOfEndedProcesses(in: temporary)
        var template = Array(
            (temporary + "/" + privateBasePrefix + "\(getpid())-XXXXXX").utf8CString)
        let base = template.withUnsafeMutableBufferPointer { buffer -> String in
            guard let made = mkdtemp(buffer.baseAddress!) else {
                preconditionFailure("DeviceFiles: cannot make a private folder in \(temporary)")
            }
            return String(cString: made)
        }
        lifeline_vf_set_private_base(base + "/")
        atexit {
            lifeline_vf_enter_own()
            try? Foundation.FileManager.default.removeItem(atPath: DeviceFiles.privateBase)
            lifeline_vf_leave_own()
        }
        return base
    }()

    /// Removes the private folders in `temporary` whose process has ended (`kill(pid, 0)`
    /// answers that no such process exists).
    static func removeFoldersOfEndedProcesses(in temporary: String) {
        let manager = Foundation.FileManager.default
        let names = (try? manager.contentsOfDirectory(atPath: temporary)) ?? []
        for name in names where name.hasPrefix(privateBasePrefix) {
            let rest = name.dropFirst(privateBasePrefix.count)
            guard let pid = Int32(rest.prefix { $0 != "-" }), pid > 0,
                kill(pid, 0) == -1, errno == ESRCH
            else { continue }
            try? manager.removeItem(atPath: temporary + "/" + name)
        }
    }

    private static func makePrivateFolder() -> String {
        var template = Array((privateBase + "/device-XXXXXX").utf8CString)
        return template.withUnsafeMutableBufferPointer { buffer in
            guard let made = mkdtemp(buffer.baseAddress!) else {
                preconditionFailure("DeviceFiles: cannot make a device folder in \(privateBase)")
            }
            return String(cString: made)
        }
    }

    // MARK: - Paths

    /// The folders above the containers, which a walk up a path may look at.
    private static let ancestors: Set<String> = [
        "/var", "/var/mobile", "/var/mobile/Containers", "/var/mobile/Containers/Data",
        "/var/mobile/Containers/Data/Application", "/var/mobile/Containers/Shared",
        appGroupsPath,
    ]

    private func isInContainers(_ device: String) -> Bool {
        if device == Self.containerPath || device.hasPrefix(Self.containerPath + "/") {
            return true
        }
        guard device.hasPrefix(Self.appGroupsPath + "/") else { return false }
        let group = device.dropFirst(Self.appGroupsPath.count + 1).prefix { $0 != "/" }
        guard let appGroups else { return true }
        return appGroups.contains { Self.stableUUID(of: $0) == group }
    }

    /// The bytes of the file at device path `path`, nil when there is none.
    func privateContents(ofPath path: String) -> [UInt8]? {
        guard let privateRoot else { return nil }
        lifeline_vf_enter_own()
        defer { lifeline_vf_leave_own() }
        guard !isFolder(privateRoot + path),
            let data = Foundation.FileManager.default.contents(atPath: privateRoot + path)
        else { return nil }
        return [UInt8](data)
    }

    private func isFolder(_ privatePath: String) -> Bool {
        var isDirectory: ObjCBool = false
        return Foundation.FileManager.default.fileExists(
            atPath: privatePath, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// `path` with `.` and `..` resolved and no trailing slash; nil when it is not absolute.
    static func normalized(_ path: String) -> String? {
        guard path.hasPrefix("/") else { return nil }
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// A UUID's text made from `text` by FNV-1a (the same in every process and run).
    static func stableUUID(of text: String) -> String {
        var first: UInt64 = 0xcbf2_9ce4_8422_2325
        var second: UInt64 = 0x8422_2325_cbf2_9ce4
        for byte in text.utf8 {
            first = (first ^ UInt64(byte)) &* 0x100_0000_01b3
            second = (second ^ UInt64(byte)) &* 0x100_0000_01b3 &+ 1
        }
        let hex = String(first, radix: 16).leftPadded(16) + String(second, radix: 16).leftPadded(16)
        let characters = Array(hex.uppercased())
        let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32]
        return groups.map { String(characters[$0]) }.joined(separator: "-")
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
