// Foundation's file manager on the simulated device (layer 4): the app's container at its
// device paths, directory listings in a fixed order, and data protection as an attribute.
import Foundation
import VirtualConcurrency
import World

/// `FileManager`, on the simulated device: the app's container and its app groups' are at the
/// same device paths in every run (`DeviceFiles.containerPath`, under
/// /var/mobile/Containers/Data/Application/), kept in a private folder of the world's that is
/// removed after the run, so nothing the app writes reaches the user's files (docs/files.md).
///
/// - `urls(for:in:)`, `url(for:in:appropriateFor:create:)`, `temporaryDirectory`,
///   `homeDirectoryForCurrentUser` and `containerURL(forSecurityApplicationGroupIdentifier:)`
///   answer the device's paths, as iOS lays out an app's container.
/// - The rest does what Foundation's does, on those paths: Foundation's own implementation
///   runs, and its C library calls reach the device's files (VirtualFiles.c). So do
///   `Data(contentsOf:)`, `Data.write(to:options:)`, `String(contentsOf:)`, `FileHandle`.
/// - Listings (`contentsOfDirectory`, `subpathsOfDirectory`) come sorted by name, the same in
///   every run (Foundation's follow the host's disk).
/// - `FileAttributeKey.protectionKey` is the file's data protection class, read and set
///   through the attributes (`attributesOfItem`, `setAttributes`, and `createFile`'s and
///   `createDirectory`'s `attributes`); a new file takes its folder's class (R-S4, R-S5).
///   `Data.WritingOptions`' protection options do not reach the device: Foundation drops them
///   on Linux before any C call, so set the class on the file or its folder instead.
///
/// Outside a simulated process it is Foundation's file manager on the real disk.
///
/// A file that imports Foundation and LifelineKit names this class with a scoped import:
///
///     import Foundation
///     #if canImport(UIKit)
///         import UIKit
///     #else
///         import LifelineKit
///         import class LifelineKit.FileManager
///     #endif
open class FileManager: NSObject, @unchecked Sendable {
    public typealias SearchPathDirectory = Foundation.FileManager.SearchPathDirectory
    public typealias SearchPathDomainMask = Foundation.FileManager.SearchPathDomainMask
    public typealias DirectoryEnumerationOptions = Foundation.FileManager
        .DirectoryEnumerationOptions
    public typealias ItemReplacementOptions = Foundation.FileManager.ItemReplacementOptions

    private static let shared = FileManager()

    /// `FileManager.default`.
    open class var `default`: FileManager { shared }

    /// Foundation's file manager, which does the work on the device's paths.
    private var foundation: Foundation.FileManager { Foundation.FileManager.default }

    /// The calling simulated process's device files, nil outside a simulated process.
    private var device: DeviceFiles? { ProcessScope.current?.services?.files }

    // MARK: - Locations

    /// Where each search path directory is in an iOS app's container.
    private static let containerFolders: [SearchPathDirectory: String] = [
        .documentDirectory: "Documents", .libraryDirectory: "Library",
        .cachesDirectory: "Library/Caches",
        .applicationSupportDirectory: "Library/Application Support",
        .autosavedInformationDirectory: "Library/Autosave Information",
        .downloadsDirectory: "Downloads", .desktopDirectory: "Desktop",
        .moviesDirectory: "Movies", .musicDirectory: "Music", .picturesDirectory: "Pictures",
        .sharedPublicDirectory: "Public",
    ]

    /// `urls(for:in:)`: in the user domain, the folder of the app's container (whether or not
    /// it exists yet, as on iOS); none in the others.
    open func urls(
        for directory: SearchPathDirectory, in domainMask: SearchPathDomainMask
    ) -> [URL] {
        guard device != nil else { return foundation.urls(for: directory, in: domainMask) }
        guard domainMask.contains(.userDomainMask), let folder = Self.containerFolders[directory]
        else { return [] }
        return [URL(fileURLWithPath: DeviceFiles.containerPath + "/" + folder, isDirectory: true)]
    }

    /// `url(for:in:appropriateFor:create:)`: the folder `urls(for:in:)` gives, made first when
    /// `shouldCreate`; for `itemReplacementDirectory`, a fresh folder in the container's tmp.
    open func url(
        for directory: SearchPathDirectory, in domain: SearchPathDomainMask,
        appropriateFor url: URL?, create shouldCreate: Bool
    ) throws -> URL {
        guard device != nil else {
            return try foundation.url(
                for: directory, in: domain, appropriateFor: url, create: shouldCreate)
        }
        if directory == .itemReplacementDirectory {
            let count = Self.replacementFolders.value + 1
            Self.replacementFolders.value = count
            let folder = temporaryDirectory.appendingPathComponent(
                "(A Document Being Saved By \(ProcessInfo.processInfo.processName) \(count))",
                isDirectory: true)
            try createDirectory(at: folder, withIntermediateDirectories: true)
            return folder
        }
        guard let found = urls(for: directory, in: domain).first else {
            throw CocoaError(.fileNoSuchFile)
        }
        if shouldCreate { try createDirectory(at: found, withIntermediateDirectories: true) }
        return found
    }

    /// Item replacement folders made in this process.
    private static let replacementFolders = ProcessLocal { 0 }

    /// `temporaryDirectory`: the container's tmp.
    open var temporaryDirectory: URL {
        guard device != nil else { return foundation.temporaryDirectory }
        return URL(fileURLWithPath: DeviceFiles.containerPath + "/tmp", isDirectory: true)
    }

    /// `homeDirectoryForCurrentUser`: the app's container.
    open var homeDirectoryForCurrentUser: URL {
        guard device != nil else { return foundation.homeDirectoryForCurrentUser }
        return URL(fileURLWithPath: DeviceFiles.containerPath, isDirectory: true)
    }

    /// `containerURL(forSecurityApplicationGroupIdentifier:)`: the group's shared container
    /// (made on first use, as the system makes it), nil when the app may not use the group.
    open func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String)
        -> URL?
    {
        guard let path = device?.appGroupPath(groupIdentifier) else { return nil }
        try? foundation.createDirectory(atPath: path, withIntermediateDirectories: true)
        return URL(fileURLWithPath: path, isDirectory: true)
    }

    // MARK: - Making, moving, removing

    open func createDirectory(
        at url: URL, withIntermediateDirectories createIntermediates: Bool,
        attributes: [FileAttributeKey: Any]? = nil
    ) throws {
        try createDirectory(
            atPath: url.path, withIntermediateDirectories: createIntermediates,
            attributes: attributes)
    }

    open func createDirectory(
        atPath path: String, withIntermediateDirectories createIntermediates: Bool,
        attributes: [FileAttributeKey: Any]? = nil
    ) throws {
        try foundation.createDirectory(
            atPath: path, withIntermediateDirectories: createIntermediates,
            attributes: withoutProtection(attributes))
        setProtection(from: attributes, ofPath: path)
    }

    /// `createFile(atPath:contents:attributes:)`: false when the file cannot be written (its
    /// class unavailable, say).
    @discardableResult
    open func createFile(
        atPath path: String, contents data: Data?, attributes attr: [FileAttributeKey: Any]? = nil
    ) -> Bool {
        // Set once the file is made: Foundation writes it atomically, and the rename that
        // puts it in place gives it its folder's class.
        let made = foundation.createFile(
            atPath: path, contents: data, attributes: withoutProtection(attr))
        if made { setProtection(from: attr, ofPath: path) }
        return made
    }

    /// `removeItem(at:)`: a folder's contents first, one by one (Foundation's walk would show
    /// the app the private folder's paths).
    open func removeItem(at url: URL) throws { try removeItem(atPath: url.path) }

    open func removeItem(atPath path: String) throws {
        var isDirectory: ObjCBool = false
        if device != nil, foundation.fileExists(atPath: path, isDirectory: &isDirectory),
            isDirectory.boolValue
        {
            for name in try contentsOfDirectory(atPath: path) {
                try removeItem(atPath: path + "/" + name)
            }
        }
        try foundation.removeItem(atPath: path)
    }

    open func moveItem(at srcURL: URL, to dstURL: URL) throws {
        try foundation.moveItem(at: srcURL, to: dstURL)
    }
    open func moveItem(atPath srcPath: String, toPath dstPath: String) throws {
        try foundation.moveItem(atPath: srcPath, toPath: dstPath)
    }

    /// `copyItem(at:to:)`: a file's bytes, or a folder and its contents, one by one (as
    /// `removeItem`); the copy takes its folder's class.
    open func copyItem(at srcURL: URL, to dstURL: URL) throws {
        try copyItem(atPath: srcURL.path, toPath: dstURL.path)
    }

    open func copyItem(atPath srcPath: String, toPath dstPath: String) throws {
        guard device != nil else {
            return try foundation.copyItem(atPath: srcPath, toPath: dstPath)
        }
        var isDirectory: ObjCBool = false
        guard foundation.fileExists(atPath: srcPath, isDirectory: &isDirectory) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: srcPath])
        }
        guard !foundation.fileExists(atPath: dstPath) else {
            throw CocoaError(.fileWriteFileExists, userInfo: [NSFilePathErrorKey: dstPath])
        }
        guard isDirectory.boolValue else {
            let data = try Data(contentsOf: URL(fileURLWithPath: srcPath))
            return try data.write(to: URL(fileURLWithPath: dstPath))
        }
        try foundation.createDirectory(atPath: dstPath, withIntermediateDirectories: false)
        for name in try contentsOfDirectory(atPath: srcPath) {
            try copyItem(atPath: srcPath + "/" + name, toPath: dstPath + "/" + name)
        }
    }

    @discardableResult
    open func replaceItemAt(
        _ originalItemURL: URL, withItemAt newItemURL: URL, backupItemName: String? = nil,
        options: ItemReplacementOptions = []
    ) throws -> URL? {
        if foundation.fileExists(atPath: originalItemURL.path) {
            try foundation.removeItem(at: originalItemURL)
        }
        try foundation.moveItem(at: newItemURL, to: originalItemURL)
        return originalItemURL
    }

    // MARK: - Reading

    open func contents(atPath path: String) -> Data? { foundation.contents(atPath: path) }
    open func fileExists(atPath path: String) -> Bool { foundation.fileExists(atPath: path) }
    open func fileExists(
        atPath path: String, isDirectory: UnsafeMutablePointer<ObjCBool>?
    ) -> Bool {
        foundation.fileExists(atPath: path, isDirectory: isDirectory)
    }
    open func isReadableFile(atPath path: String) -> Bool {
        foundation.isReadableFile(atPath: path)
    }
    open func isWritableFile(atPath path: String) -> Bool {
        foundation.isWritableFile(atPath: path)
    }
    open func isDeletableFile(atPath path: String) -> Bool {
        foundation.isDeletableFile(atPath: path)
    }

    /// `contentsOfDirectory(atPath:)`: the names, sorted.
    open func contentsOfDirectory(atPath path: String) throws -> [String] {
        try foundation.contentsOfDirectory(atPath: path).sorted()
    }

    /// `contentsOfDirectory(at:includingPropertiesForKeys:options:)`: the URLs, sorted by path.
    open func contentsOfDirectory(
        at url: URL, includingPropertiesForKeys keys: [URLResourceKey]?,
        options mask: DirectoryEnumerationOptions = []
    ) throws -> [URL] {
        try foundation.contentsOfDirectory(
            at: url, includingPropertiesForKeys: keys, options: mask
        ).sorted { $0.path < $1.path }
    }

    /// `subpathsOfDirectory(atPath:)`: the paths, sorted (a folder before what it holds).
    open func subpathsOfDirectory(atPath path: String) throws -> [String] {
        var paths: [String] = []
        for name in try contentsOfDirectory(atPath: path) {
            paths.append(name)
            var isDirectory: ObjCBool = false
            if foundation.fileExists(atPath: path + "/" + name, isDirectory: &isDirectory),
                isDirectory.boolValue
            {
                paths += try subpathsOfDirectory(atPath: path + "/" + name).map { name + "/" + $0 }
            }
        }
        return paths
    }

    // MARK: - Attributes

    /// `attributesOfItem(atPath:)`: Foundation's, with the device's `protectionKey`.
    open func attributesOfItem(atPath path: String) throws -> [FileAttributeKey: Any] {
        var attributes = try foundation.attributesOfItem(atPath: path)
        if let device {
            attributes[.protectionKey] = FileProtectionType(
                rawValue: device.protection(ofPath: path).rawValue)
        }
        return attributes
    }

    /// `setAttributes(_:ofItemAtPath:)`: `protectionKey` sets the device's class; the rest go
    /// to Foundation.
    open func setAttributes(_ attributes: [FileAttributeKey: Any], ofItemAtPath path: String)
        throws
    {
        guard foundation.fileExists(atPath: path) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: path])
        }
        let rest = withoutProtection(attributes) ?? [:]
        if !rest.isEmpty { try foundation.setAttributes(rest, ofItemAtPath: path) }
        setProtection(from: attributes, ofPath: path)
    }

    // MARK: - Protection

    private func withoutProtection(_ attributes: [FileAttributeKey: Any]?)
        -> [FileAttributeKey: Any]?
    {
        attributes?.filter { $0.key != .protectionKey }
    }

    private func setProtection(from attributes: [FileAttributeKey: Any]?, ofPath path: String) {
        guard let device, let value = attributes?[.protectionKey] else { return }
        let raw = (value as? FileProtectionType)?.rawValue ?? (value as? String)
        guard let raw, let protection = FileProtection(rawValue: raw) else { return }
        device.setProtection(protection, ofPath: Self.absolute(path))
    }

    private static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }
}

/// `NSHomeDirectory()`: in a simulated process, the app's container (its device path);
/// Foundation's elsewhere. A file that imports Foundation and LifelineKit names it with
/// `import func LifelineKit.NSHomeDirectory`.
// swift-format-ignore: AlwaysUseLowerCamelCase
public func NSHomeDirectory() -> String {
    guard ProcessScope.current?.services?.files != nil else { return Foundation.NSHomeDirectory() }
    return DeviceFiles.containerPath
}

/// `NSTemporaryDirectory()`: in a simulated process, the container's tmp, with its trailing
/// slash as Foundation gives it; Foundation's elsewhere. Named with
/// `import func LifelineKit.NSTemporaryDirectory`.
// swift-format-ignore: AlwaysUseLowerCamelCase
public func NSTemporaryDirectory() -> String {
    guard ProcessScope.current?.services?.files != nil else {
        return Foundation.NSTemporaryDirectory()
    }
    return DeviceFiles.containerPath + "/tmp/"
}
