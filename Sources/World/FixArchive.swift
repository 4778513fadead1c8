// The run's fixes, each kept once (layer 3): the app's log, the store's rows and the server all
// hold the same fix; a week's drive has about 600,000, and three copies of each were most of
// its memory.
import Simulation

/// The location updates the app's log holds and every other fix the store or the server keeps,
/// each once, numbered by slot in the order kept: 48 bytes a slot. Append-only: a slot, once
/// given, reads back the same for the life of the archive, so a copy of the log, the rows or
/// the server made earlier reads correctly after later slots are added.
///
/// A fix read back carries its slot (`Fix.archiveSlot`), and so does what the engine copies
/// from it: the log's fix handed to the engine, a row read from the store. Keeping a fix whose
/// slot already holds an equal fix gives that slot again, so a fix delivered, stored and
/// uploaded is held once and referred to by 4-byte slots. A fix whose slot does not hold it
/// (an engine changed a field, or made it from a `CLLocation` archive) is kept anew.
///
/// One archive belongs to one world, which runs on one task; it is not read while it is
/// written (a record is read after its run), which is what makes the unchecked `Sendable` safe.
package final class FixArchive: @unchecked Sendable {
    /// The slot that names nothing.
    package static let none = UInt32.max

    /// Unchecked: read and appended only by the methods below, none of which calls out while
    /// it accesses them (checked, each read of a row cost a runtime call).
    @exclusivity(unchecked) private var slots = SegmentedArray<Slot>(segmentShift: 12)

    package init() {}

    /// The number of slots.
    package var count: Int { slots.count }

    /// The fix in `slot`, carrying its slot; `slot` must hold a fix (`keep`, or an update's
    /// fix).
    @inline(__always)
    package subscript(slot: UInt32) -> Fix {
        var fix = slots[Int(slot)].fix
        fix.archiveSlot = slot
        return fix
    }

    /// The slot holding `fix`: its own when that slot holds an equal fix, a new one otherwise;
    /// nil when the archive is full (2^32 - 1 slots), and the caller keeps the fix itself.
    @inline(__always)
    package func keep(_ fix: Fix) -> UInt32? {
        let slot = fix.archiveSlot
        if slot != Self.none && Int(slot) < slots.count {
            let held = slots[Int(slot)]
            if held.hasFix && held.fix == fix { return slot }
        }
        return add(Slot(fix: fix))
    }

    /// A new slot holding `update` (the app's log's); nil when its diagnostics or its channel's
    /// object do not fit, or the archive is full (the log keeps it whole instead).
    @inline(__always)
    package func keep(_ update: LocationUpdate) -> UInt32? {
        guard let slot = Slot(update) else { return nil }
        return add(slot)
    }

    /// `slot` in a new slot; nil when the archive is full.
    @inline(__always)
    private func add(_ slot: Slot) -> UInt32? {
        let count = slots.count
        guard count < Int(Self.none) else { return nil }
        slots.append(slot)
        return UInt32(truncatingIfNeeded: count)
    }

    /// The update in `slot`, which `keep(_: LocationUpdate)` gave; its fix carries its slot.
    @inline(__always)
    package func update(at slot: UInt32) -> LocationUpdate {
        var update = slots[Int(slot)].update
        update.fix?.archiveSlot = slot
        return update
    }

    /// Whether `slot` holds a fix.
    @inline(__always)
    package func hasFix(at slot: UInt32) -> Bool { slots[Int(slot)].hasFix }

    /// A fix, or a `LocationUpdate`, in 48 bytes (80 as the struct).
    private struct Slot: Sendable {
        var instant: Instant
        var latitude: Double
        var longitude: Double
        var horizontalAccuracyMeters: Double
        var speedMetersPerSecond: Double
        var channelObject: UInt32
        /// Bits 0..<24 the diagnostics, 24..<26 the fix's source, 26 a live-updates channel,
        /// 27 a fix.
        var bits: UInt32

        private static let diagnosticsMask: UInt32 = (1 << 24) - 1
        private static let liveUpdatesBit: UInt32 = 1 << 26
        private static let hasFixBit: UInt32 = 1 << 27

        /// A slot holding `fix` alone (its channel and diagnostics unused).
        @inline(__always)
        init(fix: Fix) {
            instant = fix.instant
            latitude = fix.coordinate.latitude
            longitude = fix.coordinate.longitude
            horizontalAccuracyMeters = fix.horizontalAccuracyMeters
            speedMetersPerSecond = fix.speedMetersPerSecond
            channelObject = 0
            bits = Self.hasFixBit | caseNumber(fix.source) << 24
        }

        /// A slot holding no fix.
        private init() {
            instant = .start
            (latitude, longitude, horizontalAccuracyMeters, speedMetersPerSecond) = (0, 0, 0, 0)
            channelObject = 0
            bits = 0
        }

        /// Nil when the diagnostics or the channel's object do not fit.
        @inline(__always)
        init?(_ update: LocationUpdate) {
            guard let diagnostics = UInt32(exactly: update.diagnostics.rawValue),
                diagnostics <= Self.diagnosticsMask
            else { return nil }
            let object: ObjectID
            let channelBits: UInt32
            switch update.channel {
            case .manager(let manager): (object, channelBits) = (manager, 0)
            case .liveUpdates(let stream): (object, channelBits) = (stream, Self.liveUpdatesBit)
            }
            guard let channelObject = UInt32(exactly: object.value) else { return nil }
            if let fix = update.fix { self.init(fix: fix) } else { self.init() }
            self.channelObject = channelObject
            bits |= diagnostics | channelBits
        }

        var hasFix: Bool { bits & Self.hasFixBit != 0 }

        /// The fix held (meaningful only when `hasFix`).
        @inline(__always)
        var fix: Fix {
            Fix(
                instant: instant, coordinate: Coordinate(latitude: latitude, longitude: longitude),
                horizontalAccuracyMeters: horizontalAccuracyMeters,
                source: caseNumbered(bits >> 24 & 3), speedMetersPerSecond: speedMetersPerSecond)
        }

        @inline(__always)
        var update: LocationUpdate {
            let object = ObjectID(Int(channelObject))
            return LocationUpdate(
                channel: bits & Self.liveUpdatesBit != 0 ? .liveUpdates(object) : .manager(object),
                fix: hasFix ? fix : nil,
                diagnostics: LocationDiagnostics(rawValue: Int(bits & Self.diagnosticsMask)))
        }
    }
}
