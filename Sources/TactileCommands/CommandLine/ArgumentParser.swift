import Foundation

/// A small, table-driven command-line parser: positional arguments and `--name value` options.
package struct ArgumentParser {
    /// One option a command accepts.
    package struct Option {
        package var name: String
        package var valueName: String
        package var help: String
        /// A switch, given alone (`--demo`): it takes no value, and reads as "yes".
        package var isFlag = false

        package init(name: String, valueName: String, help: String, isFlag: Bool = false) {
            self.name = name
            self.valueName = valueName
            self.help = help
            self.isFlag = isFlag
        }
    }

    /// What a command accepts, and its help text.
    package struct Spec {
        package var usage: String
        package var summary: String
        package var positionals: [(name: String, help: String)] = []
        package var optionalPositionals = 0
        package var options: [Option] = []
        package var details: [String] = []

        package init(
            usage: String, summary: String, positionals: [(name: String, help: String)] = [],
            optionalPositionals: Int = 0, options: [Option] = [], details: [String] = []
        ) {
            self.usage = usage
            self.summary = summary
            self.positionals = positionals
            self.optionalPositionals = optionalPositionals
            self.options = options
            self.details = details
        }

        package var help: String {
            var lines = ["Usage: \(usage)", "", summary]
            if !positionals.isEmpty {
                lines.append("")
                lines.append("Arguments:")
                for p in positionals { lines.append("  " + pad(p.name) + p.help) }
            }
            lines.append("")
            lines.append("Options:")
            for o in options {
                lines.append(
                    "  " + pad(o.isFlag ? "--\(o.name)" : "--\(o.name) \(o.valueName)") + o.help)
            }
            lines.append("  " + pad("--help") + "Show this help.")
            if !details.isEmpty {
                lines.append("")
                lines.append(contentsOf: details)
            }
            return lines.joined(separator: "\n")
        }

        private func pad(_ s: String) -> String {
            s.count >= 22 ? s + "  " : s + String(repeating: " ", count: 22 - s.count)
        }
    }

    /// The parsed arguments.
    package struct Parsed {
        package var positionals: [String] = []
        package var options: [String: String] = [:]
        package var wantsHelp = false

        package func option(_ name: String) -> String? { options[name] }

        /// The whole number given as `--name`, within `range`; `nil` when the option is
        /// absent. A message names the option as `shownAs` when `--name` alone says too little.
        package func integer<T: FixedWidthInteger>(
            _ name: String, in range: ClosedRange<T>, shownAs shown: String? = nil
        ) throws(CommandFailure) -> T? {
            guard let text = options[name] else { return nil }
            return try ValueParser.integer(text, name: shown ?? "--\(name)", in: range)
        }

        /// The number given as `--name`, within `range`; `nil` when the option is absent.
        package func number(_ name: String, in range: ClosedRange<Double>)
            throws(CommandFailure) -> Double?
        {
            guard let text = options[name] else { return nil }
            return try ValueParser.number(text, name: "--\(name)", in: range)
        }

        /// The value given as `--name`, one of `choices`; `nil` when the option is absent.
        package func choice(_ name: String, from choices: [String]) throws(CommandFailure)
            -> String?
        {
            guard let text = options[name] else { return nil }
            return try ValueParser.choice(text, name: "--\(name)", from: choices)
        }
    }

    /// Parses `arguments` against `spec`; `--help` anywhere wins.
    package static func parse(_ arguments: [String], spec: Spec) throws(CommandFailure) -> Parsed {
        var parsed = Parsed()
        var i = 0
        var optionsEnded = false
        while i < arguments.count {
            let argument = arguments[i]
            // `--` ends the options: what follows is positional, even if it starts with -.
            if optionsEnded {
                parsed.positionals.append(argument)
                i += 1
                continue
            }
            if argument == "--" {
                optionsEnded = true
                i += 1
                continue
            }
            if argument == "--help" || argument == "-h" {
                parsed.wantsHelp = true
                return parsed
            }
            if argument.hasPrefix("--") {
                var name = String(argument.dropFirst(2))
                var value: String?
                if let equals = name.firstIndex(of: "=") {
                    value = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
                guard let option = spec.options.first(where: { $0.name == name }) else {
                    let known = spec.options.map { "--\($0.name)" } + ["--help"]
                    throw .usage(
                        "unknown option --\(TerminalText.shown(name)); accepted: \(known.joined(separator: ", "))"
                    )
                }
                if option.isFlag {
                    guard value == nil else {
                        throw .usage("option --\(name) takes no value")
                    }
                    value = "yes"
                } else if value == nil {
                    i += 1
                    guard i < arguments.count else {
                        throw .usage("option --\(name) needs a value")
                    }
                    value = arguments[i]
                }
                guard parsed.options[name] == nil else {
                    throw .usage("option --\(name) is given twice")
                }
                parsed.options[name] = value
            } else {
                parsed.positionals.append(argument)
            }
            i += 1
        }
        let required = spec.positionals.count - spec.optionalPositionals
        if parsed.positionals.count < required {
            let missing = spec.positionals[parsed.positionals.count].name
            throw .usage("missing \(missing); usage: \(spec.usage)")
        }
        if parsed.positionals.count > spec.positionals.count {
            throw .usage(
                "unexpected argument \(TerminalText.quoted(parsed.positionals[spec.positionals.count])); usage: \(spec.usage)"
            )
        }
        return parsed
    }
}

/// Parsing of numbers with messages that name the value and the accepted range.
///
/// Numbers are plain decimals as a person writes them: an optional sign, digits, a decimal
/// point and an exponent (`-12`, `0.5`, `1e3`). Hexadecimal (`0x10`), `inf`, `nan` and
/// digit separators are refused, so a value never means something other than it reads.
package enum ValueParser {
    package static func integer<T: FixedWidthInteger>(
        _ text: String, name: String, in range: ClosedRange<T>
    )
        throws(CommandFailure) -> T
    {
        let accepted = "\(name) must be a whole number \(range.lowerBound)…\(range.upperBound)"
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard isDecimal(trimmed, allowingFraction: false) else {
            throw .usage("\(accepted), got \(TerminalText.quoted(text))")
        }
        guard let value = T(trimmed) else {
            throw .usage("\(accepted), got \(TerminalText.quoted(text)) (out of range)")
        }
        guard range.contains(value) else { throw .usage("\(accepted), got \(value)") }
        return value
    }

    package static func number(_ text: String, name: String, in range: ClosedRange<Double>)
        throws(CommandFailure) -> Double
    {
        let accepted =
            "\(name) must be a number \(format(range.lowerBound))…\(format(range.upperBound))"
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard isDecimal(trimmed, allowingFraction: true), let value = Double(trimmed),
            value.isFinite
        else {
            throw .usage("\(accepted), got \(TerminalText.quoted(text))")
        }
        // A decimal by now, so it is shown as written.
        guard range.contains(value) else { throw .usage("\(accepted), got \(trimmed)") }
        return value
    }

    package static func choice(_ text: String, name: String, from choices: [String])
        throws(CommandFailure)
        -> String
    {
        guard choices.contains(text) else {
            throw .usage(
                "\(name) must be one of \(choices.joined(separator: ", ")), got \(TerminalText.quoted(text))"
            )
        }
        return text
    }

    /// Whether `text` is `[+-]digits` or, with fractions, `[+-](digits[.digits]|.digits)[e[+-]digits]`.
    package static func isDecimal(_ text: String, allowingFraction: Bool) -> Bool {
        var bytes = Substring(text).utf8[...]
        if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            bytes = bytes.dropFirst()
        }
        func digits() -> Int {
            let count = bytes.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        var mantissa = digits()
        if allowingFraction, bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            mantissa += digits()
        }
        guard mantissa > 0 else { return false }
        if allowingFraction, let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                bytes = bytes.dropFirst()
            }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }

    package static func format(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
    }
}
