import Synchronization

#if canImport(Glibc)
    import Glibc
#endif
// Work belongs to its process: a task's job carries the simulated process it last ran in, and
// a job of another process is refused rather than run.
@_spi(ExperimentalCustomExecutors) import _Concurrency

/// The runtime's id of the task a job runs (0 for a job that is not a task): a C entry point of
/// the Swift concurrency runtime, the one `ExecutorJob.description` reads.
@_silgen_name("swift_task_getJobTaskId")
func jobTaskID(_ job: UnownedJob) -> UInt64

extension VirtualProcess {
    /// Each process's serial number, never reused in the real process.
    static let serials = Atomic<UInt64>(0)
    static func nextSerial() -> UInt64 { serials.add(1, ordering: .relaxed).newValue }

    /// Claims `job` for this process, or refuses it as another process's.
    ///
    /// Swift's runtime does not say which task a job's code belongs to beyond its id, so each
    /// task's job carries, in the two words the runtime leaves to the executor
    /// (`withUnsafeExecutorPrivateData`), the task's id and the serial of the process it was
    /// last enqueued in. A job whose words name this very task and another process is work of
    /// that process (a continuation made there, kept in a global and resumed here, in this
    /// world or another): it is dropped, never run, and reported as an escape. Words that do not
    /// name the task (a new task, a task whose words an actor's queue used meanwhile) are taken
    /// as this process's: such a crossing can be missed, never invented.
    func claims(_ job: UnownedJob) -> Bool {
        let id = jobTaskID(job)
        guard id != 0 else { return true }
        let serial = self.serial
        let foreign = ExecutorJob(job).withUnsafeExecutorPrivateData { words -> Bool in
            guard words.count >= 16 else { return false }
            let stampedID = words.load(fromByteOffset: 0, as: UInt64.self)
            let stampedSerial = words.load(fromByteOffset: 8, as: UInt64.self)
            if getenv("LIFELINE_DEBUG_OWNERSHIP") != nil {
                print("claims id \(id) serial \(serial) stamped \(stampedID) \(stampedSerial) count \(words.count)")
            }
            if stampedID == id, stampedSerial != 0, stampedSerial != serial { return true }
            words.storeBytes(of: id, toByteOffset: 0, as: UInt64.self)
            words.storeBytes(of: serial, toByteOffset: 8, as: UInt64.self)
            return false
        }
        guard foreign else { return true }
        noteDropped()
        SimulationEscapes.report(
            call: "a task or continuation of another simulated process (one that ended, or "
                + "another world's) resumed in this one",
            supportedForm: "resume a continuation in the process that made it, and keep "
                + "per-process state in ProcessLocal: a process's work never runs in another")
        return false
    }
}
