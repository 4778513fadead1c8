// `lifeline bench …`: the benchmarks, each printing the peer's information line and, last,
// `events=N wall_s=S events_per_s=R` (or its own figures).
import Benchmarks
import Simulation

enum BenchCommand {
    static let kernelUsage = """
        usage: lifeline bench kernel [--model 1|2] [--events N] [--processes P] [--seed S]
                                     [--trace-hash] [--kernel-trace-hash] [--ordering O]
                                     [--resolution DURATION]

        Runs the models of the DES peer benchmark (integer-time variant) on the kernel
        and prints the same information line as 'simpy_bench.py --time ns', then
        'events=N wall_s=S events_per_s=R'. Defaults: model 1, N = 1000000, P = 1000, seed 42.
          --trace-hash         the peers' trace hash (trace_hash=...)
          --kernel-trace-hash  the kernel's own trace hash over every delivery (kernel_trace_hash=...)
          --ordering O         fifo (default), random:SEED or pct:SEED:DEPTH for simultaneous events
          --resolution D       round every delay down to a multiple of D (e.g. 1ms) so that many
                               events coincide; the peer fingerprints hold only at the default 1ns
        """

    static let memoryUsage = """
        usage: lifeline bench memory [--timers N] [--seed S]

        Schedules N timers (default 1000000) at random instants within an hour, prints the peak
        resident memory while all are pending, then delivers them all.
        """

    static let dayUsage = """
        usage: lifeline bench day [--days N] [--trace-hash]

        Simulates N commuter days (default 200; 07:00 drive 45 min, walk 10 min, parked until 17:30,
        walk, drive, parked until midnight) with live updates and a background activity session, on
        one core, and prints simulated days per second. --trace-hash also prints the kernel's trace
        hash of the first day (trace_hash=...), to compare runs and processes.
        """

    static let gpxUsage = """
        usage: lifeline bench gpx [--points N]

        Writes a synthetic timed track of N points (default 1000000; a drive round a ring road at
        1 Hz, the same file every time) to a temporary file, reads it into a route, and prints
        'points=N file_mb=… wall_s=… points_per_s=… peak_rss_mb=… route_mb=…': the time to read
        it, the process's peak resident memory (Linux VmHWM; "unavailable" elsewhere) and the
        route's own size (its waypoints and leg speeds).
        """

    /// The benchmarks, as `lifeline help` lists them and the dispatcher runs them.
    static let subcommands = [
        Subcommand(
            name: "kernel", summary: "the DES peer benchmark on the kernel",
            usage: kernelUsage, run: { try kernel(&$0, output: $1) }),
        Subcommand(
            name: "memory", summary: "peak resident memory with many pending timers",
            usage: memoryUsage, run: { try memory(&$0, output: $1) }),
        Subcommand(
            name: "shrink",
            summary: "the shrinking benchmark's challenges on the explorer",
            usage: ShrinkBenchCommand.usage, run: { try ShrinkBenchCommand.run(&$0, output: $1) }),
        Subcommand(
            name: "day", summary: "simulated commuter days per second on the world model",
            usage: dayUsage, run: { try day(&$0, output: $1) }),
        Subcommand(
            name: "gpx", summary: "reading a long GPX track into a route: time and peak memory",
            usage: gpxUsage, run: { try gpx(&$0, output: $1) }),
        Subcommand(
            name: "drive", summary: "one drive of H hours, run and judged: time and peak memory",
            usage: DriveBenchCommand.usage, run: { try DriveBenchCommand.run(&$0, output: $1) }),
        Subcommand(
            name: "fuzz", summary: "the fuzzer's scenarios per second on J workers",
            usage: FuzzBenchCommand.usage, run: { try FuzzBenchCommand.run(&$0, output: $1) }),
    ]

    static func kernel(_ reader: inout ArgumentReader, output: CommandOutput) throws -> Int32 {
        let modelNumber = try reader.integer("--model", in: 1...2, default: 1)
        let events = try reader.integer("--events", in: 1...1_000_000_000, default: 1_000_000)
        let processes = try reader.integer("--processes", in: 1...10_000_000, default: 1000)
        let seed = try reader.seed("--seed", default: 42)
        let hashes = try reader.flag("--trace-hash")
        let kernelHashes = try reader.flag("--kernel-trace-hash")
        let ordering =
            try reader.parsed("--ordering", OrderingSpecification.init(parsing:)) ?? .fifo
        let resolution =
            try reader.parsed("--resolution") { text in
                let duration = try VirtualDuration(parsing: text)
                guard duration.nanoseconds >= 1 else {
                    throw UsageError("the resolution is at least 1ns")
                }
                return duration
            } ?? VirtualDuration.nanoseconds(1)
        try reader.finish()
        let benchmark = KernelBenchmark(
            model: .init(rawValue: modelNumber)!, processCount: processes,
            eventCount: events, seed: seed, computesTraceHash: hashes,
            computesKernelTraceHash: kernelHashes, ordering: ordering,
            resolutionNanoseconds: resolution.nanoseconds)
        let result = benchmark.run()
        var info = [
            "engine=lifeline-kernel", "model=\(modelNumber)", "P=\(processes)", "N=\(events)",
            "rng=splitmix64", "seed=\(seed)", "time=ns",
            "sim_time=\(result.simulatedNanoseconds)", "scheduled=\(result.scheduled)",
        ]
        if let fired = result.fired, let cancelled = result.cancelled {
            info += ["fired=\(fired)", "cancelled=\(cancelled)"]
        }
        if ordering != .fifo { info.append("ordering=\(ordering)") }
        if resolution.nanoseconds != 1 { info.append("resolution=\(resolution)") }
        if let hash = result.traceHash {
            info.append("trace_hash=\(PlainText.hexadecimal16(hash))")
        }
        if let hash = result.kernelTraceHash {
            info.append("kernel_trace_hash=\(PlainText.hexadecimal16(hash))")
        }
        output.standard(info.joined(separator: " "))
        output.standard(eventsLine(events: result.events, wallSeconds: result.wallSeconds))
        return 0
    }

    static func memory(_ reader: inout ArgumentReader, output: CommandOutput) throws -> Int32 {
        let timers = try reader.integer("--timers", in: 1...100_000_000, default: 1_000_000)
        let seed = try reader.seed("--seed", default: 42)
        try reader.finish()
        let result = PendingTimersBenchmark(timerCount: timers, seed: seed).run()
        let peak =
            result.peakResidentBytes.map { String(format2($0, divisor: 1_048_576)) } ?? "unknown"
        output.standard(
            "engine=lifeline-kernel timers=\(timers) pending=\(result.pendingAtPeak) "
                + "peak_rss_mb=\(peak) delivered=\(result.delivered)")
        output.standard(eventsLine(events: result.delivered, wallSeconds: result.wallSeconds))
        return 0
    }

    static func day(_ reader: inout ArgumentReader, output: CommandOutput) throws -> Int32 {
        let days = try reader.integer("--days", in: 1...1_000_000, default: 200)
        let hashes = try reader.flag("--trace-hash")
        try reader.finish()
        let started = WallClock.seconds()
        var first: CommuterDay.Outcome?
        var deliveries = 0
        for index in 0..<days {
            var day = CommuterDay()
            day.seed = UInt64(index) + 1
            let outcome = day.run(hashesTrace: hashes && index == 0)
            deliveries += outcome.deliveries
            if first == nil { first = outcome }
        }
        let wall = WallClock.seconds() - started
        output.standard(
            "engine=lifeline-world workload=commuter-day days=\(days) deliveries_per_day=\(first!.deliveries) "
                + "fixes_per_day=\(first!.fixesReceived) stationary_updates_per_day=\(first!.stationaryUpdates) "
                + "launches_per_day=\(first!.launches)"
                + (first!.traceHash.map { " trace_hash=\(PlainText.hexadecimal16($0))" } ?? ""))
        output.standard(
            "days=\(days) wall_s=\(format6(wall)) days_per_s=\(format2(Double(days) / wall)) "
                + "events_per_s=\(format2(Double(deliveries) / wall))")
        return 0
    }

    static func gpx(_ reader: inout ArgumentReader, output: CommandOutput) throws -> Int32 {
        let points = try reader.integer("--points", in: 1...100_000_000, default: 1_000_000)
        try reader.finish()
        let result = try GPXLoadBenchmark(pointCount: points).run()
        let peak =
            result.peakResidentBytes.map { format2($0, divisor: 1_048_576) } ?? "unavailable"
        output.standard(
            "points=\(result.points) file_mb=\(format2(result.fileBytes, divisor: 1_048_576)) "
                + "wall_s=\(format6(result.wallSeconds)) "
                + "points_per_s=\(format2(Double(result.points) / result.wallSeconds)) "
                + "peak_rss_mb=\(peak) route_mb=\(format2(result.routeBytes, divisor: 1_048_576))")
        return 0
    }

    /// The peers' closing line.
    static func eventsLine(events: Int, wallSeconds: Double) -> String {
        "events=\(events) wall_s=\(format6(wallSeconds)) events_per_s=\(format2(Double(events) / wallSeconds))"
    }
}

/// `value / divisor` with two decimals, rounded half away from zero.
func format2(_ value: Int, divisor: Int) -> String { format2(Double(value) / Double(divisor)) }

/// `value` with two decimals.
func format2(_ value: Double) -> String { PlainText.fixed(value, digits: 2) }

/// `value` with six decimals.
func format6(_ value: Double) -> String { PlainText.fixed(value, digits: 6) }
