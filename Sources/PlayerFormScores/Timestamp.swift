import Foundation

/// Times of upload as score files write them: ISO 8601 in UTC with milliseconds.
///
/// Dates are rounded to whole milliseconds before they are kept, so a record reads back equal to the one
/// returned.
public enum Timestamp {
    private static let seconds = Date.ISO8601FormatStyle()
    private static let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// The times a file holds, in seconds since 1970: the years 1 to 9999, to the millisecond.
    package static let writable: ClosedRange<Double> = -62_135_596_800...253_402_300_799.999

    /// `date` to the nearest whole millisecond.
    public static func rounded(_ date: Date) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds(date)) / 1000)
    }

    /// `date` rounded to the millisecond, or nil when it lies outside ``writable``.
    package static func checked(_ date: Date) -> Date? {
        writable.contains(date.timeIntervalSince1970) ? rounded(date) : nil
    }

    /// Why a time cannot be written.
    package static func unwritableReason(_ date: Date) -> String {
        "the time \(date.timeIntervalSince1970) seconds since 1970 lies outside the years 1 to 9999"
    }

    /// The text of `date` to the millisecond; written from whole milliseconds, since formatting
    /// the fraction of a binary number of seconds can truncate .123 to .122.
    public static func text(_ date: Date) -> String {
        let total = milliseconds(date)
        if let text = quickText(total) { return text }
        let (whole, fraction) = (total.quotientAndRemainder(dividingBy: 1000))
        let (second, millisecond) = fraction < 0 ? (whole - 1, fraction + 1000) : (whole, fraction)
        let text = seconds.format(Date(timeIntervalSince1970: Double(second)))
        let digits = String(millisecond)
        return text.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }

    /// The date of `text` (ISO 8601 with fractional seconds), rounded to the millisecond.
    ///
    /// The form score files write, `YYYY-MM-DDTHH:MM:SS.mmmZ`, is read in the proleptic Gregorian
    /// calendar, as ISO 8601 counts every year, and only when it names a real time: no 30
    /// February, no hour 24, no minute or second 60. Another form is read by Foundation's parser.
    public static func date(_ text: String) -> Date? {
        switch written(text) {
        case .time(let milliseconds): checked(Date(timeIntervalSince1970: Double(milliseconds) / 1000))
        // Foundation would read an impossible time of that form as a later one (25:61 as 02:01
        // the next day), and a year before 1582 in the Julian calendar.
        case .impossible: nil
        case .otherForm: (try? fractional.parse(text)).flatMap(checked)
        }
    }

    /// The milliseconds of the form score files write, `YYYY-MM-DDTHH:MM:SS.mmmZ` from the year
    /// 1 to 9999 in the proleptic Gregorian calendar, read without a date parser; nil for any
    /// other form, or a time that does not exist.
    package static func quickMilliseconds(_ text: String) -> Int64? {
        if case .time(let milliseconds) = written(text) { milliseconds } else { nil }
    }

    /// What `text` is as the form score files write.
    private enum Written {
        /// That form, naming this time, in milliseconds since 1970.
        case time(Int64)
        /// That form, naming a time that does not exist.
        case impossible
        /// Another form.
        case otherForm
    }

    /// `text` read as the form score files write: one look at its separators tells the form, and
    /// its digits the time.
    private static func written(_ text: String) -> Written {
        var text = text
        return text.withUTF8 { bytes -> Written in
            guard bytes.count == 24, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54,
                bytes[13] == 0x3A, bytes[16] == 0x3A, bytes[19] == 0x2E, bytes[23] == 0x5A
            else { return .otherForm }
            func digits(_ from: Int, _ count: Int) -> Int64? {
                var value: Int64 = 0
                for index in from..<(from + count) {
                    let digit = Int64(bytes[index]) - 0x30
                    guard (0...9).contains(digit) else { return nil }
                    value = value * 10 + digit
                }
                return value
            }
            guard let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
                let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
                let millisecond = digits(20, 3), (1...12).contains(month), hour < 24, minute < 60,
                second < 60, year >= 1
            else { return .impossible }
            let leap = isLeap(year)
            let lengths: [Int64] = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
            guard day >= 1, day <= lengths[Int(month - 1)] else { return .impossible }
            // Days from 1970-01-01 (the proleptic Gregorian calendar, years counted from March).
            let shiftedYear = month <= 2 ? year - 1 : year
            let era = shiftedYear / 400
            let yearOfEra = shiftedYear - era * 400
            let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
            let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
            let days = era * 146_097 + dayOfEra - 719_468
            return .time(((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millisecond)
        }
    }

    /// The text of `milliseconds` since 1970 from the year 1 to 9999 in the proleptic Gregorian
    /// calendar, written without a date formatter (a roster or an export writes one per record);
    /// nil for any other year, which Foundation's formatter writes.
    ///
    /// Foundation writes years before 1582 in the Julian calendar, ten days and more apart from
    /// the roster's table, which counts them as ISO 8601 does.
    package static func quickText(_ milliseconds: Int64) -> String? {
        // 0001-01-01T00:00:00.000Z and 10000-01-01T00:00:00.000Z.
        guard milliseconds >= -62_135_596_800_000, milliseconds < 253_402_300_800_000 else { return nil }
        let (days, dayMilliseconds) = milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
        let (day0, time) =
            dayMilliseconds < 0 ? (days - 1, dayMilliseconds + 86_400_000) : (days, dayMilliseconds)
        // The civil date of a day count from 1970-01-01, in eras of 400 years counted from March.
        let shifted = day0 + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return String(unsafeUninitializedCapacity: 24) { buffer in
            var end = 0
            func put(_ value: Int64, _ width: Int, then separator: UInt8) {
                var value = value
                for offset in stride(from: width - 1, through: 0, by: -1) {
                    buffer[end + offset] = 0x30 + UInt8(value % 10)
                    value /= 10
                }
                buffer[end + width] = separator
                end += width + 1
            }
            put(year, 4, then: 0x2D)
            put(month, 2, then: 0x2D)
            put(day, 2, then: 0x54)
            put(time / 3_600_000, 2, then: 0x3A)
            put(time / 60_000 % 60, 2, then: 0x3A)
            put(time / 1000 % 60, 2, then: 0x2E)
            put(time % 1000, 3, then: 0x5A)
            return end
        }
    }

    private static func isLeap(_ year: Int64) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// The date `milliseconds` after 1970, as stores keep times.
    package static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// `date` in whole milliseconds since 1970, as stores keep times.
    package static func milliseconds(_ date: Date) -> Int64 {
        let value = (date.timeIntervalSince1970 * 1000).rounded()
        // Times outside `writable` are refused before they get here; any other is held at the
        // nearest end instead of trapping.
        return Int64(exactly: value) ?? (value > 0 ? .max : .min)
    }
}
