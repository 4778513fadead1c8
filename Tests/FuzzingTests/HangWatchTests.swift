// When a case counts as hung (`HangWatch`): by the processor time its thread used, so that a
// case a loaded machine slows down is not a `no-hang` failure; by ten timeouts of wall time
// when it uses no processor; by the wall clock alone where processor time is unknown. And the
// `/proc` reading behind it (`ProcessorTime`).
import Foundation
import Testing

@testable import Fuzzing

@Suite("Hang watch")
struct HangWatchTests {
    /// Clocks a test sets: wall seconds, and the processor seconds of the thread named 7.
    final class Times: @unchecked Sendable {
        var wall = 100.0
        var processor: Double? = 20
        var threadsAsked: [Int32?] = []

        var clocks: HangWatch.Clocks {
            HangWatch.Clocks(
                wall: { self.wall },
                processor: { _, thread in
                    self.threadsAsked.append(thread)
                    return self.processor
                })
        }
    }

    @Test("a case slowed by a busy machine is no hang until its thread used the timeout")
    func slowNotHung() {
        let times = Times()
        var watch = HangWatch(pid: 1, timeout: 5, clocks: times.clocks)
        watch.started(3)
        watch.runs(3, onThread: 7)
        // 30 s of wall time, but the case's thread ran for 4 s of it.
        times.wall += 30
        times.processor = 24
        #expect(watch.hung() == nil)
        times.processor = 25
        #expect(watch.hung() == HangWatch.Hang(caseIndex: 3, measure: .processor))
        #expect(times.threadsAsked.last == 7)
    }

    @Test("a quick machine: the timeout of processor time is reached with the wall's")
    func spinningIsHung() {
        let times = Times()
        var watch = HangWatch(pid: 1, timeout: 5, clocks: times.clocks)
        watch.started(0)
        times.wall += 4.9
        times.processor = 24.9
        #expect(watch.hung() == nil)
        times.wall += 0.1
        times.processor = 25
        #expect(watch.hung() == HangWatch.Hang(caseIndex: 0, measure: .processor))
    }

    @Test("a case blocked without using the processor is hung after ten timeouts of wall time")
    func blockedIsHung() {
        let times = Times()
        var watch = HangWatch(pid: 1, timeout: 5, clocks: times.clocks)
        watch.started(2)
        times.wall += 49.9
        #expect(watch.hung() == nil)
        times.wall += 0.1
        #expect(watch.hung() == HangWatch.Hang(caseIndex: 2, measure: .blocked))
    }

    @Test("without processor times (not Linux), the wall clock alone counts")
    func wallOnly() {
        let times = Times()
        times.processor = nil
        var watch = HangWatch(pid: 1, timeout: 5, clocks: times.clocks)
        watch.started(1)
        watch.started(4)
        times.wall += 4.9
        #expect(watch.hung() == nil)
        times.wall += 0.1
        #expect(watch.hung() == HangWatch.Hang(caseIndex: 1, measure: .wall))
        watch.finished(1)
        #expect(watch.hung() == HangWatch.Hang(caseIndex: 4, measure: .wall))
        #expect(watch.inFlight == [4])
    }

    @Test("a finished case is no longer watched, and nothing in flight needs no check")
    func finishedCases() {
        let times = Times()
        var watch = HangWatch(pid: 1, timeout: 5, clocks: times.clocks)
        #expect(watch.nextCheck() == nil)
        watch.started(0)
        #expect(watch.nextCheck() == 105)
        watch.finished(0)
        times.wall += 60
        #expect(watch.hung() == nil)
        #expect(watch.nextCheck() == nil)
    }

    @Test("a /proc stat line: user and system ticks after a name holding spaces and a parenthesis")
    func statLine() {
        let line = "4242 (a (b) c) R 1 1 1 0 -1 4194304 686 0 2 0 250 50 0 0 20 0 1 0 1037649"
        #expect(ProcessorTime.seconds(fromStat: line) == 300 / ProcessorTime.ticksPerSecond)
        #expect(ProcessorTime.seconds(fromStat: "4242 (truncated) R 1 1") == nil)
    }

    #if os(Linux)
        @Test("this thread's processor time is read from /proc and grows as it computes")
        func ownThread() throws {
            let thread = try #require(ProcessorTime.currentThread())
            let before = try #require(ProcessorTime.seconds(process: getpid(), thread: thread))
            var sum: UInt64 = 0
            var after = before
            // Work until the kernel's tick counter moves (10 ms of processor time at 100 Hz).
            while after == before {
                for value in 0..<100_000 { sum &+= UInt64(value) &* 2_654_435_761 }
                after = try #require(ProcessorTime.seconds(process: getpid(), thread: thread))
            }
            #expect(after > before)
            #expect(sum != 1)
            let whole = try #require(ProcessorTime.seconds(process: getpid()))
            #expect(whole >= after)
        }
    #endif
}
