import Foundation
import TactileCore
import TactileCrypto
import TactilePatternLock
import TactilePatternVault

/// `tactile pattern count|set|check|change|remove|status`.
///
/// Nothing here prints the pattern or anything derived from it: messages name the store,
/// counts and waits only.
package enum PatternCommand {
    static let countSpec = ArgumentParser.Spec(
        usage: "tactile pattern count [--grid N] [--min-length L]",
        summary:
            "Count the valid patterns by length (dynamic programming over selected set and last dot).",
        options: [
            .init(
                name: "grid", valueName: "N",
                help:
                    "Dots per side, \(PatternCounter.gridSizes.lowerBound)…\(PatternCounter.gridSizes.upperBound). Default 3."
            ),
            .init(
                name: "min-length", valueName: "L",
                help:
                    "Shortest pattern counted, 1…N². Default \(PatternLimits.defaultMinimumLength)."
            ),
        ],
        details: [
            "Output: csv lines length,count, then total,N.",
            "A move may pass only over dots already selected (a drag adds any others itself).",
        ])

    static let storeOption = ArgumentParser.Option(
        name: "store", valueName: "FILE",
        help: "The pattern store (mode 0600); never a symbolic link, a FIFO or a directory.")

    static let patternHelp =
        "Dots numbered 1…N² row by row, joined by -, such as 1-5-9-6; - reads it from standard input."

    static let setSpec = ArgumentParser.Spec(
        usage: "tactile pattern set --store FILE [--grid N] <pattern|->",
        summary: "Create a store holding a salted Argon2id hash of a pattern.",
        positionals: [("<pattern|->", patternHelp)],
        options: [
            .init(
                name: "store", valueName: "FILE",
                help: "The store to create (mode 0600); it must not exist yet."),
            .init(
                name: "grid", valueName: "N",
                help:
                    "Dots per side, \(PatternLimits.gridSizes.lowerBound)…\(PatternLimits.gridSizes.upperBound). Default 3."
            ),
        ],
        details: [
            "At least \(PatternLimits.defaultMinimumLength) dots. A dot passed over on the way is added, as a drag would: 1-3-6-9 is 1-2-3-6-9.",
            "The pattern itself is never written, printed or logged. Use - to keep it out of ps.",
        ])

    static let checkSpec = ArgumentParser.Spec(
        usage: "tactile pattern check --store FILE <pattern|->",
        summary: "Check a pattern against a store, with attempt throttling kept in the store.",
        positionals: [("<pattern|->", patternHelp)],
        options: [storeOption],
        details: [
            "Exit codes: 0 match; 1 wrong pattern (says how many tries remain before a wait);",
            "2 invalid input or no store; 3 locked out (says the seconds left); 4 damaged store.",
            "Waits after consecutive failures: 30 s at 5, and from 10 on (doubling every 10 from 30, one day from 140).",
        ])

    static let changeSpec = ArgumentParser.Spec(
        usage: "tactile pattern change --store FILE <old|-> <new|->",
        summary: "Replace the pattern, given the current one (a wrong one counts as an attempt).",
        positionals: [
            ("<old|->", "The current pattern; - reads it from standard input."),
            ("<new|->", "The new pattern, on the same grid; - reads the next line."),
        ],
        options: [storeOption],
        details: ["Exit codes as for check; 0 means the pattern was changed."])

    static let removeSpec = ArgumentParser.Spec(
        usage: "tactile pattern remove --store FILE <pattern|->",
        summary: "Delete the store, given the current pattern (a wrong one counts as an attempt).",
        positionals: [("<pattern|->", patternHelp)],
        options: [storeOption],
        details: ["Exit codes as for check; 0 means the store was removed."])

    static let statusSpec = ArgumentParser.Spec(
        usage: "tactile pattern status --store FILE",
        summary:
            "Say whether a pattern is set, on which grid, the failures in a row and any wait.",
        options: [storeOption],
        details: ["Exit codes: 0 a pattern is set; 1 none is set; 4 damaged store."])

    static func run(_ context: CommandContext) throws(CommandFailure) {
        try run(
            context.arguments, input: context.input, output: context.output,
            clock: { Date().timeIntervalSince1970 }, cost: PatternVault.recommendedCost)
    }

    /// The command with its clock (seconds since 1970) and hashing cost given, for tests.
    static func run(
        _ arguments: [String], input: CommandInput = CommandInput(text: ""),
        output: CommandOutput, clock: @escaping @Sendable () -> Double, cost: Argon2idCost
    ) throws(CommandFailure) {
        func vault(_ parsed: ArgumentParser.Parsed) throws(CommandFailure) -> PatternVault {
            guard let path = parsed.option("store") else {
                throw .usage("missing --store FILE")
            }
            guard !path.isEmpty else { throw .usage("--store needs a file name") }
            return PatternVault(path: path, cost: cost, clock: clock)
        }
        typealias Action = (PatternSession) throws(CommandFailure) -> Void
        func entry(_ name: String, _ spec: ArgumentParser.Spec, _ action: @escaping Action)
            -> (
                name: String, spec: ArgumentParser.Spec,
                run: (ArgumentParser.Parsed, CommandOutput) throws(CommandFailure) -> Void
            )
        {
            (
                name, spec,
                { parsed, output throws(CommandFailure) in
                    try action(
                        PatternSession(
                            parsed: parsed, vault: try vault(parsed), input: input,
                            output: output))
                }
            )
        }
        try dispatch(
            arguments, command: "pattern",
            [
                ("count", countSpec, count),
                entry("set", setSpec, set),
                entry("check", checkSpec, check),
                entry("change", changeSpec, change),
                entry("remove", removeSpec, remove),
                entry("status", statusSpec, status),
            ],
            output: output)
    }

    static func count(_ parsed: ArgumentParser.Parsed, output: CommandOutput)
        throws(CommandFailure)
    {
        let size =
            try parsed.option("grid").map { text throws(CommandFailure) in
                if let size = Int(text), size > PatternCounter.maximumGridSize,
                    PatternLimits.gridSizes.contains(size)
                {
                    throw .usage(
                        "--grid must be a whole number 2…\(PatternCounter.maximumGridSize) for counting, got \(size) (a \(size)×\(size) count would need 2^\(size * size) × \(size * size) counters)"
                    )
                }
                return try ValueParser.integer(text, name: "--grid", in: PatternCounter.gridSizes)
            } ?? 3
        let grid = try patternResult { () throws(PatternError) in try PatternGrid(size: size) }
        let minimum =
            try parsed.integer("min-length", in: 1...grid.dotCount)
            ?? PatternLimits.defaultMinimumLength
        let count = try patternResult { () throws(PatternError) in
            try PatternCounter.count(grid: grid, minimumLength: minimum)
        }
        output.line("length,count")
        for row in count.rows {
            output.write(UInt64(row.length))
            output.write(byte: 44)
            output.write(row.count)
            output.write(byte: 10)
        }
        output.write("total,")
        output.write(count.total)
        output.write(byte: 10)
    }

    /// What a store sub-command works with.
    struct PatternSession {
        var parsed: ArgumentParser.Parsed
        var vault: PatternVault
        var input: CommandInput
        var output: CommandOutput

        /// The pattern in positional argument `index`, or the next line of standard input
        /// for `-`, parsed for `grid`.
        func pattern(_ index: Int, grid: PatternGrid) throws(CommandFailure) -> Pattern {
            var text = parsed.positionals[index]
            let name = parsed.positionals.count > 1 ? "pattern \(index + 1)" : "the pattern"
            if text == "-" {
                guard let line = try input.readLine(name: name) else {
                    throw .usage("\(name): standard input ended before a pattern was read")
                }
                text = line
            }
            return try PatternCommand.parse(text, grid: grid)
        }

        /// Runs `operation` on the store with the patterns of the first `count` positional
        /// arguments, read for the store's grid; fails (``PatternCommand/report(_:vault:status:)``)
        /// unless the store accepted the pattern.
        func verify(
            patterns count: Int,
            _ operation: (PatternVault, [Pattern]) throws(PatternVaultError) -> PatternVerification
        ) throws(CommandFailure) {
            let status = try requireStatus()
            var patterns: [Pattern] = []
            for index in 0..<count { patterns.append(try pattern(index, grid: status.grid)) }
            let verdict = try vaultResult { () throws(PatternVaultError) in
                try operation(vault, patterns)
            }
            try report(verdict, vault: vault, status: status)
        }

        /// The store's status; a missing store is bad input naming how to create one.
        func requireStatus() throws(CommandFailure) -> PatternVaultStatus {
            let status = try vaultResult { () throws(PatternVaultError) in try vault.status() }
            guard let status else {
                throw .usage(
                    "no pattern is set: \(vault.path) does not exist; create it with tactile pattern set --store \(vault.path) <pattern>"
                )
            }
            return status
        }
    }

    static func set(_ session: PatternSession) throws(CommandFailure) {
        let size =
            try session.parsed.integer("grid", in: PatternLimits.gridSizes)
            ?? PatternGrid.standard.size
        let grid = try patternResult { () throws(PatternError) in try PatternGrid(size: size) }
        let pattern = try session.pattern(0, grid: grid)
        let vault = session.vault
        try vaultResult { () throws(PatternVaultError) in
            if try vault.status() != nil { throw .alreadyEnrolled(path: vault.path) }
            try vault.enroll(pattern)
        }
        session.output.line(
            "Pattern set in \(TerminalText.escaped(vault.path)): \(pattern.grid), at least \(PatternLimits.defaultMinimumLength) dots, Argon2id \(describe(vault.cost))."
        )
        try session.output.checkWritable(afterChange: "the pattern was set")
    }

    static func check(_ session: PatternSession) throws(CommandFailure) {
        try session.verify(patterns: 1) { vault, patterns throws(PatternVaultError) in
            try vault.verify(patterns[0])
        }
        session.output.line("Pattern accepted.")
    }

    static func change(_ session: PatternSession) throws(CommandFailure) {
        try session.verify(patterns: 2) { vault, patterns throws(PatternVaultError) in
            try vault.change(from: patterns[0], to: patterns[1])
        }
        session.output.line("Pattern changed in \(TerminalText.escaped(session.vault.path)).")
        try session.output.checkWritable(afterChange: "the pattern was changed")
    }

    static func remove(_ session: PatternSession) throws(CommandFailure) {
        try session.verify(patterns: 1) { vault, patterns throws(PatternVaultError) in
            try vault.remove(patterns[0])
        }
        session.output.line(
            "Pattern removed: \(TerminalText.escaped(session.vault.path)) is deleted.")
        try session.output.checkWritable(afterChange: "the pattern was removed")
    }

    static func status(_ session: PatternSession) throws(CommandFailure) {
        let vault = session.vault
        let status = try vaultResult { () throws(PatternVaultError) in try vault.status() }
        guard let status else {
            throw CommandFailure(.negative, "no pattern is set: \(vault.path) does not exist")
        }
        let wait = status.lockoutRemaining.map { "locked for \(seconds($0)) s" } ?? "not locked"
        session.output.line(
            "Pattern set in \(TerminalText.escaped(vault.path)): \(status.grid), at least \(status.minimumLength) dots, Argon2id \(describe(status.cost)); \(status.failures) wrong in a row, \(wait)."
        )
    }

    /// Turns anything but an accepted verdict into the command's failure.
    static func report(
        _ verdict: PatternVerification, vault: PatternVault, status: PatternVaultStatus
    ) throws(CommandFailure) {
        switch verdict {
        case .accepted:
            return
        case .rejected(let failures, let wait, let attempts):
            let counted = "\(failures) wrong in a row"
            if wait > 0 {
                throw CommandFailure(
                    .negative,
                    "wrong pattern (\(counted)); try again in \(seconds(wait)) s")
            }
            let next = PatternThrottle.wait(afterFailures: failures + attempts)
            let tries = attempts == 1 ? "1 try" : "\(attempts) tries"
            throw CommandFailure(
                .negative,
                "wrong pattern (\(counted)); \(tries) left before a \(seconds(next)) s wait")
        case .lockedOut(let secondsLeft):
            // Counted now, after the lock: other checks may have failed since the first look.
            let failures = (try? vault.status())??.failures ?? status.failures
            throw CommandFailure(
                .locked,
                "locked out after \(failures) wrong patterns in a row; try again in \(seconds(secondsLeft)) s"
            )
        }
    }

    /// Parses a written pattern for a grid; any problem is bad input (exit 2).
    package static func parse(_ text: String, grid: PatternGrid) throws(CommandFailure) -> Pattern {
        do {
            let pattern = try Pattern(canonical: text, grid: grid)
            try pattern.validate()
            return pattern
        } catch {
            throw .usage("invalid pattern: \(error.message)")
        }
    }

    /// Whole seconds, rounded up, so "0 s" is never shown while a wait remains.
    static func seconds(_ value: Double) -> Int { Int(value.rounded(.up)) }

    package static func describe(_ cost: Argon2idCost) -> String {
        let mebibytes = Double(cost.memoryBytes) / Double(1 << 20)
        let memory =
            mebibytes >= 1
            ? "\(ValueParser.format(mebibytes)) MiB" : "\(cost.memoryBytes / 1024) KiB"
        return "\(cost.passes) \(cost.passes == 1 ? "pass" : "passes") over \(memory)"
    }

    package static func patternResult<T>(_ body: () throws(PatternError) -> T)
        throws(CommandFailure)
        -> T
    {
        do { return try body() } catch { throw .usage(error.message) }
    }

    /// Maps vault errors to exit codes: store problems 4, everything else 2.
    package static func vaultResult<T>(_ body: () throws(PatternVaultError) -> T)
        throws(CommandFailure)
        -> T
    {
        do { return try body() } catch {
            switch error {
            case .invalidPattern(let problem):
                throw .usage("invalid pattern: \(problem.message)")
            case .notEnrolled, .alreadyEnrolled, .unusablePath:
                throw .usage(error.message)
            case .damaged, .unsupportedVersion, .unreadable, .unwritable, .hashingFailed:
                throw CommandFailure(.damagedStore, error.message)
            }
        }
    }
}
