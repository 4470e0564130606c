import Foundation

/// A small, table-driven command-line parser: positional arguments and `--name value` options.
struct ArgumentParser {
    /// One option a command accepts.
    struct Option {
        var name: String
        var valueName: String
        var help: String
    }

    /// What a command accepts, and its help text.
    struct Spec {
        var usage: String
        var summary: String
        var positionals: [(name: String, help: String)] = []
        var optionalPositionals = 0
        var options: [Option] = []
        var details: [String] = []

        var help: String {
            var lines = ["Usage: \(usage)", "", summary]
            if !positionals.isEmpty {
                lines.append("")
                lines.append("Arguments:")
                for p in positionals { lines.append("  " + pad(p.name) + p.help) }
            }
            lines.append("")
            lines.append("Options:")
            for o in options { lines.append("  " + pad("--\(o.name) \(o.valueName)") + o.help) }
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
    struct Parsed {
        var positionals: [String] = []
        var options: [String: String] = [:]
        var wantsHelp = false

        func option(_ name: String) -> String? { options[name] }
    }

    /// Parses `arguments` against `spec`; `--help` anywhere wins.
    static func parse(_ arguments: [String], spec: Spec) throws(CommandFailure) -> Parsed {
        var parsed = Parsed()
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
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
                guard spec.options.contains(where: { $0.name == name }) else {
                    let known = spec.options.map { "--\($0.name)" } + ["--help"]
                    throw .usage(
                        "unknown option --\(name); accepted: \(known.joined(separator: ", "))")
                }
                if value == nil {
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
                "unexpected argument \"\(parsed.positionals[spec.positionals.count])\"; usage: \(spec.usage)"
            )
        }
        return parsed
    }
}

/// Parsing of numbers with messages that name the value and the accepted range.
enum ValueParser {
    static func integer<T: FixedWidthInteger>(
        _ text: String, name: String, in range: ClosedRange<T>
    )
        throws(CommandFailure) -> T
    {
        let accepted = "\(name) must be a whole number \(range.lowerBound)…\(range.upperBound)"
        guard let value = T(text.trimmingCharacters(in: .whitespaces)) else {
            throw .usage("\(accepted), got \"\(text)\"")
        }
        guard range.contains(value) else { throw .usage("\(accepted), got \(value)") }
        return value
    }

    static func number(_ text: String, name: String, in range: ClosedRange<Double>)
        throws(CommandFailure) -> Double
    {
        let accepted =
            "\(name) must be a number \(format(range.lowerBound))…\(format(range.upperBound))"
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite else {
            throw .usage("\(accepted), got \"\(text)\"")
        }
        guard range.contains(value) else { throw .usage("\(accepted), got \(text)") }
        return value
    }

    static func choice(_ text: String, name: String, from choices: [String]) throws(CommandFailure)
        -> String
    {
        guard choices.contains(text) else {
            throw .usage(
                "\(name) must be one of \(choices.joined(separator: ", ")), got \"\(text)\"")
        }
        return text
    }

    static func format(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
    }
}
