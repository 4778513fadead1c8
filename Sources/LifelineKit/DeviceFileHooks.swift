// The Swift side of VirtualFiles.c (layer 4): the C library's path-taking calls of a simulated
// process reach the device's files of that process's world.
import Foundation
import World

/// Where a C library call of a simulated process on a device path goes (VirtualFiles.h):
/// 0 with the private path written to `out`, an errno to fail with, or -1 when the path is no
/// file of the calling process's device (the caller reports an escape). Not for direct use.
@_cdecl("lifeline_files_route")
package func lifelineFilesRoute(
    _ path: UnsafePointer<CChar>, _ access: Int32, _ out: UnsafeMutablePointer<CChar>,
    _ size: Int
) -> Int32 {
    guard let files = ProcessScope.current?.services?.files,
        let access = FileAccess(rawValue: access)
    else { return -1 }
    switch files.route(String(cString: path), access: access) {
    case .privatePath(let privatePath):
        let bytes = Array(privatePath.utf8CString)
        guard bytes.count <= size else { return ENAMETOOLONG }
        for (index, byte) in bytes.enumerated() { out[index] = byte }
        return 0
    case .refused(let error): return error
    case .outside: return -1
    }
}

/// A file of the device was closed after a write, removed, or renamed (`other`): the rows
/// that hold the files follow (`DeviceFiles+Rows`). Not for direct use.
@_cdecl("lifeline_files_changed")
package func lifelineFilesChanged(
    _ change: Int32, _ path: UnsafePointer<CChar>, _ other: UnsafePointer<CChar>?
) {
    guard let services = ProcessScope.current?.services, let files = services.files else {
        return
    }
    // Before the first unlock the store cannot be opened (R-D9): only a file of class `none`
    // can be written then, and it is no row until it is written again.
    let store = files.firstUnlocked ? try? services.openStore() : nil
    let path = String(cString: path)
    switch change {
    case 1: files.fileWritten(path, store: store)
    case 2: files.fileRemoved(path, store: store)
    case 3:
        if let other { files.fileRenamed(from: path, to: String(cString: other), store: store) }
    default: break
    }
}
