import Formats
// Policy files (layer 3): a flat JSON object naming a preset and overriding any property of
// `IOSPolicy` by name, for "what if iOS changed this?" research.
import Foundation
import Simulation

/// Why a policy file cannot be used: the file, the line, the key and what was expected.
package struct PolicyFileError: Error, Equatable, CustomStringConvertible {
    package var path: String
    package var line: Int
    package var key: String?
    package var message: String
    package var description: String {
        line > 0 ? "\(path):\(line): \(message)" : "\(path): \(message)"
    }

    package init(path: String, line: Int, key: String?, message: String) {
        self.path = path
        self.line = line
        self.key = key
        self.message = message
    }
}

extension IOSPolicy {
    /// How a property is written in a policy file.
    enum Field {
        case duration(WritableKeyPath<IOSPolicy, VirtualDuration>)
        case meters(WritableKeyPath<IOSPolicy, Double>)
        case flag(WritableKeyPath<IOSPolicy, Bool>)
        case count(WritableKeyPath<IOSPolicy, Int>, ClosedRange<Int>)
    }

    /// Every property a file may set, by name, in declaration order.
    static var fields: [(key: String, field: Field)] {
        [
            ("leavingTransition", .duration(\.leavingTransition)),
            ("suspensionDelay", .duration(\.suspensionDelay)),
            ("backgroundTaskBudget", .duration(\.backgroundTaskBudget)),
            ("backgroundTaskWatchdogDelay", .duration(\.backgroundTaskWatchdogDelay)),
            (
                "backgroundTaskEarlyExpiryPercent",
                .count(\.backgroundTaskEarlyExpiryPercent, 0...100)
            ),
            ("backgroundWakeRuntime", .duration(\.backgroundWakeRuntime)),
            ("appRefreshRuntime", .duration(\.appRefreshRuntime)),
            ("taskRequestIntervalMin", .duration(\.taskRequestIntervalMin)),
            ("remoteNotificationRuntime", .duration(\.remoteNotificationRuntime)),
            ("relaunchRecreateWindow", .duration(\.relaunchRecreateWindow)),
            ("endsIdleBackgroundLaunch", .flag(\.endsIdleBackgroundLaunch)),
            ("relaunchLatencySession", .duration(\.relaunchLatencySession)),
            ("relaunchLatencySignificantChange", .duration(\.relaunchLatencySignificantChange)),
            ("relaunchLatencyRegion", .duration(\.relaunchLatencyRegion)),
            ("relaunchLatencyVisit", .duration(\.relaunchLatencyVisit)),
            ("relaunchLatencyBoot", .duration(\.relaunchLatencyBoot)),
            ("legacyLaunchOptionsCarryLocation", .flag(\.legacyLaunchOptionsCarryLocation)),
            ("whenInUseGrace", .duration(\.whenInUseGrace)),
            ("deniedSignalDelay", .duration(\.deniedSignalDelay)),
            ("requestLocationTimeout", .duration(\.requestLocationTimeout)),
            ("systemVersion", .count(\.systemVersion, 5...99)),
            ("stationaryPauseDelay", .duration(\.stationaryPauseDelay)),
            ("stationarySpeedMetersPerSecond", .meters(\.stationarySpeedMetersPerSecond)),
            ("sessionRejoinWindow", .duration(\.sessionRejoinWindow)),
            ("automaticPauseDelay", .duration(\.automaticPauseDelay)),
            ("significantChangeDistanceMeters", .meters(\.significantChangeDistanceMeters)),
            ("significantChangeIntervalMin", .duration(\.significantChangeIntervalMin)),
            ("significantChangeLatency", .duration(\.significantChangeLatency)),
            ("regionExitCushionMeters", .meters(\.regionExitCushionMeters)),
            ("regionExitLatency", .duration(\.regionExitLatency)),
            ("regionEntryCushionMeters", .meters(\.regionEntryCushionMeters)),
            ("regionEntryLatency", .duration(\.regionEntryLatency)),
            ("regionCountMax", .count(\.regionCountMax, 0...10_000)),
            ("visitArrivalDwell", .duration(\.visitArrivalDwell)),
            ("visitRadiusMeters", .meters(\.visitRadiusMeters)),
            ("visitDepartureLatency", .duration(\.visitDepartureLatency)),
            ("forceQuitRelaunchBySignificantChange", .flag(\.forceQuitRelaunchBySignificantChange)),
            ("forceQuitRelaunchByRegion", .flag(\.forceQuitRelaunchByRegion)),
            ("forceQuitRelaunchBySession", .flag(\.forceQuitRelaunchBySession)),
            ("willTerminateOnForceQuit", .flag(\.willTerminateOnForceQuit)),
            ("rebootRelaunchWithoutMovement", .flag(\.rebootRelaunchWithoutMovement)),
            ("rebootRelaunchDelay", .duration(\.rebootRelaunchDelay)),
            ("rebootRelaunchAgainAtFirstUnlock", .flag(\.rebootRelaunchAgainAtFirstUnlock)),
            ("fixInterval", .duration(\.fixInterval)),
            ("gnssDesiredAccuracyMetersMax", .meters(\.gnssDesiredAccuracyMetersMax)),
            ("wifiDesiredAccuracyMetersMax", .meters(\.wifiDesiredAccuracyMetersMax)),
            ("fixNoiseRadiusFraction", .meters(\.fixNoiseRadiusFraction)),
            ("gnssAccuracyMeters", .meters(\.gnssAccuracyMeters)),
            ("wifiAccuracyMetersMin", .meters(\.wifiAccuracyMetersMin)),
            ("wifiAccuracyMetersMax", .meters(\.wifiAccuracyMetersMax)),
            ("cellAccuracyMeters", .meters(\.cellAccuracyMeters)),
            ("reducedAccuracyMetersMin", .meters(\.reducedAccuracyMetersMin)),
            ("reducedAccuracyMetersMax", .meters(\.reducedAccuracyMetersMax)),
            ("reducedAccuracyUpdateInterval", .duration(\.reducedAccuracyUpdateInterval)),
            ("queuedUpdateCountMax", .count(\.queuedUpdateCountMax, 0...1_000_000)),
            ("storeCommitDuration", .duration(\.storeCommitDuration)),
            ("savedRecordWriteDelay", .duration(\.savedRecordWriteDelay)),
            ("uploadLatency", .duration(\.uploadLatency)),
            ("networkFailurePercent", .count(\.networkFailurePercent, 0...100)),
            ("serverErrorPercent", .count(\.serverErrorPercent, 0...100)),
            ("serverRetryAfter", .duration(\.serverRetryAfter)),
            ("backgroundTransferDuration", .duration(\.backgroundTransferDuration)),
            (
                "backgroundTransferDiscretionaryDelay",
                .duration(\.backgroundTransferDiscretionaryDelay)
            ),
            ("backgroundSessionEventsRuntime", .duration(\.backgroundSessionEventsRuntime)),
            ("processingTaskRuntime", .duration(\.processingTaskRuntime)),
        ]
    }

    /// Reads a policy file: `{"preset": "iOS18", "whenInUseGrace": "5s", …}`. The preset (default
    /// `measured`) is applied first, then every other key in file order. Durations are strings
    /// (`"5s"`, `"1m30s"`), distances and speeds numbers, switches `true`/`false`, counts whole
    /// numbers.
    /// - Throws: `PolicyFileError` naming the file, the line and the key: an unknown key, a
    ///   value of the wrong type, or an impossible one (a negative delay, a zero fix interval).
    public static func load(path: String) throws -> IOSPolicy {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PolicyFileError(path: path, line: 0, key: nil, message: "the file cannot be read")
        }
        return try parse(String(decoding: data, as: UTF8.self), path: path)
    }

    /// Reads policy-file text; `path` names it in errors.
    package static func parse(_ text: String, path: String) throws -> IOSPolicy {
        let entries: [(key: String, value: FlatJSONValue, line: Int)]
        do { entries = try readFlatJSONObject(text) } catch let error as FlatJSONError {
            throw PolicyFileError(
                path: path, line: error.line, key: nil,
                message: "not a policy file: \(error.message)")
        }
        var policy = IOSPolicy.measured
        if let preset = entries.first(where: { $0.key == "preset" }) {
            guard case .string(let name) = preset.value, let base = IOSPolicy.preset(named: name)
            else {
                throw PolicyFileError(
                    path: path, line: preset.line, key: "preset",
                    message:
                        "'preset' expects one of \(presetNames.joined(separator: ", ")), got \(preset.value)"
                )
            }
            policy = base
        }
        for entry in entries where entry.key != "preset" {
            try policy.apply(entry, path: path)
        }
        try policy.validate(
            path: path,
            lines: Dictionary(
                entries.map { ($0.key, $0.line) }, uniquingKeysWith: { first, _ in first }))
        return policy
    }

    /// The keys a policy file or a scenario's `policy` line may set, in declaration order.
    package static var overrideKeys: [String] { fields.map(\.key) }

    /// This policy with `overrides` applied in order, each value written as text the way a
    /// scenario writes it (`whenInUseGrace=5s`, `significantChangeDistanceMeters=250`,
    /// `willTerminateOnForceQuit=false`), through the same checks and messages as a policy
    /// file: the text is read as the value a policy file would hold for that key (a duration
    /// string, a number, `true` or `false`) and applied as one of its entries.
    /// - Throws: `PolicyFileError` naming `path`, `line` and the key that failed.
    package func applying(overrides: [(key: String, value: String)], path: String, line: Int)
        throws -> IOSPolicy
    {
        var policy = self
        for override in overrides {
            let value = Self.fileValue(ofOverride: override.value, key: override.key)
            try policy.apply((override.key, value, line), path: path)
        }
        try policy.validate(
            path: path,
            lines: Dictionary(
                overrides.map { ($0.key, line) }, uniquingKeysWith: { first, _ in first }))
        return policy
    }

    /// The policy-file value that an override's text stands for, by the kind of its key (a
    /// text that is not of that kind stays a string, which `apply` rejects with its message).
    private static func fileValue(ofOverride text: String, key: String) -> FlatJSONValue {
        switch fields.first(where: { $0.key == key })?.field {
        case .duration?, nil: .string(text)
        case .meters?, .count?: Double(text).map(FlatJSONValue.number) ?? .string(text)
        case .flag?: text == "true" ? .bool(true) : text == "false" ? .bool(false) : .string(text)
        }
    }

    private mutating func apply(
        _ entry: (key: String, value: FlatJSONValue, line: Int), path: String
    ) throws {
        func fail(_ message: String) -> PolicyFileError {
            PolicyFileError(path: path, line: entry.line, key: entry.key, message: message)
        }
        guard let field = Self.fields.first(where: { $0.key == entry.key })?.field else {
            throw fail(
                "unknown key '\(entry.key)'; a policy file sets 'preset' or a property of IOSPolicy "
                    + "(\(Self.fields.prefix(3).map(\.key).joined(separator: ", ")), …)")
        }
        switch (field, entry.value) {
        case (.duration(let path), .string(let text)):
            guard let duration = try? VirtualDuration(parsing: text) else {
                throw fail(
                    "'\(entry.key)' expects a duration such as \"5s\" or \"1m30s\" (not negative), got \"\(text)\""
                )
            }
            self[keyPath: path] = duration
        case (.meters(let path), .number(let number)):
            guard number >= 0, number.isFinite else {
                throw fail("'\(entry.key)' must be a number at least 0, got \(number)")
            }
            self[keyPath: path] = number
        case (.flag(let path), .bool(let flag)):
            self[keyPath: path] = flag
        case (.count(let path, let range), .number(let number)):
            guard number == number.rounded(), range.contains(Int(exactly: number) ?? -1) else {
                throw fail(
                    "'\(entry.key)' must be a whole number from \(range.lowerBound) to \(range.upperBound), got \(number)"
                )
            }
            self[keyPath: path] = Int(number)
        case (.duration, _):
            throw fail(
                "'\(entry.key)' expects a duration string such as \"5s\", got \(entry.value.kind)")
        case (.meters, _): throw fail("'\(entry.key)' expects a number, got \(entry.value.kind)")
        case (.flag, _): throw fail("'\(entry.key)' expects true or false, got \(entry.value.kind)")
        case (.count, _):
            throw fail("'\(entry.key)' expects a whole number, got \(entry.value.kind)")
        }
    }

    /// Checks what no single key can: positive intervals and ordered ranges.
    private func validate(path: String, lines: [String: Int]) throws {
        func fail(_ key: String, _ message: String) -> PolicyFileError {
            PolicyFileError(path: path, line: lines[key] ?? 1, key: key, message: message)
        }
        if fixInterval.nanoseconds <= 0 {
            throw fail("fixInterval", "'fixInterval' must be longer than 0s")
        }
        if wifiAccuracyMetersMin > wifiAccuracyMetersMax {
            throw fail(
                "wifiAccuracyMetersMin",
                "'wifiAccuracyMetersMin' must not exceed 'wifiAccuracyMetersMax'")
        }
        if reducedAccuracyMetersMin > reducedAccuracyMetersMax {
            throw fail(
                "reducedAccuracyMetersMin",
                "'reducedAccuracyMetersMin' must not exceed 'reducedAccuracyMetersMax'")
        }
    }
}
