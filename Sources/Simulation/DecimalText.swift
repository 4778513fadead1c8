// Numbers as text (layer 1), computed in integers so that traces, tables and JSON read the same
// on every platform (no Foundation formatter).

/// `value` in fixed notation with `digits` decimals (0 to 9), rounded half away from zero;
/// no sign on a value that rounds to zero.
public func fixed(_ value: Double, digits: Int) -> String {
    precondition((0...9).contains(digits), "0 to 9 decimals")
    guard value.isFinite else { return String(value) }
    var scale: Int64 = 1
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(value) * Double(scale)).rounded()
    guard scaled < 9.2e18 else { return String(value) }
    let units = Int64(scaled)
    let sign = value < 0 && units != 0 ? "-" : ""
    guard digits > 0 else { return sign + String(units) }
    return sign + String(units / scale) + "." + zeroPadded(units % scale, width: digits)
}

/// `value` with leading zeros to `width` digits.
func zeroPadded(_ value: Int64, width: Int) -> String {
    let digits = String(value)
    return digits.count >= width
        ? digits : String(repeating: "0", count: width - digits.count) + digits
}
