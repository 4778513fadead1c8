// The device files' private folders of killed processes do not pile up in the temporary
// folder: each process removes those of processes no longer running.
import Foundation
import Testing

@testable import World

@Suite("Private folders of ended processes")
struct DeviceFolderCleanupTests {
    @Test("a folder of a process that is not running goes; this process's and others' stay")
    func endedProcessesFoldersGo() throws {
        let manager = FileManager.default
        let temporary = NSTemporaryDirectory() + "lifeline-cleanup-\(getpid())"
        try manager.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        defer { try? manager.removeItem(atPath: temporary) }
        // No process has the largest pid: kill(pid, 0) answers ESRCH.
        let ended = "lifeline-devices-2147483646-AbCdEf"
        let running = "lifeline-devices-\(getpid())-GhIjKl"
        let unnumbered = "lifeline-devices-MnOpQr"
        let other = "unrelated-2147483646-x"
        for name in [ended, running, unnumbered, other] {
            try manager.createDirectory(
                atPath: temporary + "/" + name + "/device-1", withIntermediateDirectories: true)
        }
        DeviceFiles.removeFoldersOfEndedProcesses(in: temporary)
        let left = try manager.contentsOfDirectory(atPath: temporary).sorted()
        #expect(left == [running, unnumbered, other].sorted())
    }
}
