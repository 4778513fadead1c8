import Synchronization

// Work belongs to its process: each task is owned by the simulated process it first ran in,
// and its job enqueued in another process is refused rather than run.
@_spi(ExperimentalCustomExecutors) import _Concurrency

/// The runtime's id of the task a job runs (0 for a job that is not a task): a C entry point of
/// the Swift concurrency runtime, the one `ExecutorJob.description` reads.
@_silgen_name("swift_task_getJobTaskId")
func jobTaskID(_ job: UnownedJob) -> UInt64

extension VirtualProcess {
    /// Each process's serial number, never reused in the real process.
    static let serials = Atomic<UInt64>(0)
    static func nextSerial() -> UInt64 { serials.add(1, ordering: .relaxed).newValue }

    /// The simulated process each task was last enqueued in, by the runtime's task id (ids
    /// are never reused in a real process). Kept for the life of the real process, a few
    /// dozen bytes per task a simulated process ever made, so that a task is recognised in any
    /// later process or world.
    static let owners = Mutex<[UInt64: UInt64]>([:])

    /// Claims `job` for this process, or refuses it as another process's.
    ///
    /// Swift's runtime does not say which process's code a job is; it gives the id of the task
    /// a job runs (`swift_task_getJobTaskId`). The first process a task is enqueued in owns it
    /// (`owners`); the task's job enqueued in another process (a continuation made in one
    /// process, kept in a global and resumed by the next one, in this world or another) is
    /// dropped, never run, and reported as an escape. A job that is no task (an actor's own
    /// job) is taken as this process's.
    func claims(_ job: UnownedJob) -> Bool {
        let id = jobTaskID(job)
        guard id != 0 else { return true }
        // An owner, once recorded, is never replaced: the task this process claimed last (a
        // loop resumed at every update) is still its own, without the lock and the lookup.
        if id == lastClaimedTask { return true }
        let serial = self.serial
        let foreign = Self.owners.withLock { owners -> Bool in
            if let owner = owners[id] { return owner != serial }
            owners[id] = serial
            return false
        }
        guard foreign else {
            lastClaimedTask = id
            return true
        }
        noteDropped()
        SimulationEscapes.report(
            call: "a task or continuation of another simulated process (one that ended, or "
                + "another world's) resumed in this one",
            supportedForm: "resume a continuation in the process that made it, and keep "
                + "per-process state in ProcessLocal: a process's work never runs in another")
        return false
    }
}
