import Foundation

// Number formatting shared by the table and the targets.

/// `1234567` → `1,234,567`.
func count(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var grouped = ""
    for (offset, digit) in digits.enumerated() {
        if offset > 0 && (digits.count - offset) % 3 == 0 { grouped.append(",") }
        grouped.append(digit)
    }
    return (value < 0 ? "-" : "") + grouped
}

/// Two decimals: `2.345` → `2.35`.
func format(_ value: Double, decimals: Int = 2) -> String {
    String(format: "%.\(decimals)f", value)
}

/// Nanoseconds as a readable duration: `12.3 µs`, `4.56 ms`.
func duration(_ nanoseconds: Double) -> String {
    if nanoseconds >= 1_000_000 { return format(nanoseconds / 1_000_000) + " ms" }
    if nanoseconds >= 1_000 { return format(nanoseconds / 1_000) + " µs" }
    return format(nanoseconds, decimals: 0) + " ns"
}

func milliseconds(_ nanoseconds: Double) -> String { format(nanoseconds / 1_000_000) + " ms" }

func mebibytes(_ bytes: Double) -> String { format(bytes / 1_048_576, decimals: 1) + " MiB" }
