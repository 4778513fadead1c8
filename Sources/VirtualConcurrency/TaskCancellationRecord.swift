// The two runtime entry points `withTaskCancellationHandler` is made of, for a wait that runs
// again at every element of a sequence and wants no async frame of its own.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The current task's cancellation handler, registered and removed by hand: the two calls
/// `withTaskCancellationHandler(operation:onCancel:isolation:)` makes around its operation
/// (`swift_task_addCancellationHandler` and `swift_task_removeCancellationHandler` of Swift's
/// concurrency runtime), without that function's frame and its executor checks.
///
/// The runtime names are reserved to the compiler (`@_silgen_name` of them warns), so they are
/// looked up once in the loaded runtime and called with Swift's own convention.
package enum TaskCancellationRecord {
    private typealias Add = @convention(thin) (() -> Void) -> UnsafeRawPointer?
    private typealias Remove = @convention(thin) (UnsafeRawPointer?) -> Void

    private static let addEntry = unsafeBitCast(runtimeSymbol(addName), to: Add.self)
    private static let removeEntry = unsafeBitCast(runtimeSymbol(removeName), to: Remove.self)
    private static let addName = "swift_task_addCancellationHandler"
    private static let removeName = "swift_task_removeCancellationHandler"

    /// Registers `handler` as the current task's cancellation handler and returns its record.
    /// If the task is cancelled already, the handler runs at once, before this returns, and the
    /// record is nil. Call it from async code only (it needs a current task).
    ///
    /// The runtime keeps `handler` without retaining it: its context must outlive the record,
    /// so pass a closure held by an object the caller keeps until `remove(_:)`.
    package static func add(_ handler: () -> Void) -> UnsafeRawPointer? {
        addEntry(handler)
    }

    /// Removes the record `add(_:)` returned, on the same task, once (nil: nothing to remove).
    package static func remove(_ record: UnsafeRawPointer?) { removeEntry(record) }

    private static func runtimeSymbol(_ name: String) -> UnsafeMutableRawPointer {
        #if canImport(Darwin)
            let everyImage = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
        #else
            let everyImage: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
        #endif
        guard let symbol = dlsym(everyImage, name) else {
            preconditionFailure("the Swift concurrency runtime has no \(name)")
        }
        return symbol
    }
}
