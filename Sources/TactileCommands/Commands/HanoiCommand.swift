import TactileHanoi

/// `tactile hanoi solve|count|move`.
enum HanoiCommand {
    static let solveSpec = ArgumentParser.Spec(
        usage:
            "tactile hanoi solve <disks> [--pegs P] [--from STATE] [--to PEG|STATE] [--format text|csv]",
        summary: "Print a shortest solution, one move per line.",
        positionals: [("<disks>", "Number of disks, 1…64 (disk 1 is the smallest).")],
        options: [
            .init(
                name: "pegs", valueName: "P", help: "Number of pegs, 3…26 (A, B, C, …). Default 3."),
            .init(
                name: "from", valueName: "STATE",
                help: "Start position, one peg letter per disk, disk 1 first. Default: all on A."),
            .init(
                name: "to", valueName: "PEG|STATE",
                help: "Goal: a peg letter (all disks there) or a state. Default: the last peg."),
            .init(
                name: "format", valueName: "text|csv",
                help: "text: \"Move 1: disk 1 from A to C\"; csv: header move,disk,from,to."),
        ],
        details: ["Example: tactile hanoi solve 3 --from ACB --to CCC"])

    static let countSpec = ArgumentParser.Spec(
        usage: "tactile hanoi count <disks> [--pegs P]",
        summary: "Print the fewest moves for a whole tower (Frame–Stewart with 4 or more pegs).",
        positionals: [("<disks>", "Number of disks, 1…64.")],
        options: [.init(name: "pegs", valueName: "P", help: "Number of pegs, 3…26. Default 3.")])

    static let moveSpec = ArgumentParser.Spec(
        usage: "tactile hanoi move <disks> <k>",
        summary: "Print move k of the optimal three-peg solution, computed directly from k.",
        positionals: [
            ("<disks>", "Number of disks, 1…64."), ("<k>", "Move number, 1…2^disks − 1."),
        ])

    static func run(_ arguments: [String], output: CommandOutput) throws(CommandFailure) {
        try dispatch(
            arguments, command: "hanoi",
            [("solve", solveSpec, solve), ("count", countSpec, count), ("move", moveSpec, move)],
            output: output)
    }

    static func disks(_ text: String) throws(CommandFailure) -> Int {
        try ValueParser.integer(text, name: "number of disks", in: HanoiLimits.disks)
    }

    static func pegs(_ parsed: ArgumentParser.Parsed) throws(CommandFailure) -> Int {
        try parsed.integer("pegs", in: HanoiLimits.pegs) ?? 3
    }

    static func solve(_ parsed: ArgumentParser.Parsed, output: CommandOutput) throws(CommandFailure)
    {
        let n = try disks(parsed.positionals[0])
        let p = try pegs(parsed)
        let format = try parsed.choice("format", from: ["text", "csv"]) ?? "text"
        let start =
            try position(parsed, "from", pegs: p) ?? HanoiPosition(disks: n, pegs: p, allOn: 0)
        let goal =
            try position(parsed, "to", pegs: p, allowingPeg: n)
            ?? HanoiPosition(disks: n, pegs: p, allOn: p - 1)
        guard start.diskCount == n else {
            throw .usage("--from \"\(start)\" has \(start.diskCount) letters but <disks> is \(n)")
        }
        guard goal.diskCount == n else {
            throw .usage("--to \"\(goal)\" has \(goal.diskCount) letters but <disks> is \(n)")
        }
        let plan: HanoiPlan
        do { plan = try HanoiSolver.plan(from: start, to: goal) } catch {
            throw .usage(error.message)
        }
        let letters = (0..<p).map { UInt8(65 + $0) }
        var k: UInt64 = 0
        // Output streams: a closed pipe or a full disk stops the loop at the next move.
        let isCSV = format == "csv"
        if isCSV { output.line("move,disk,from,to") }
        do {
            try plan.forEachMove { move in
                k += 1
                if isCSV {
                    output.write(k)
                    output.write(byte: 44)
                    output.write(UInt64(move.disk))
                    output.write(byte: 44)
                    output.write(byte: letters[move.from])
                    output.write(byte: 44)
                    output.write(byte: letters[move.to])
                } else {
                    output.write("Move ")
                    output.write(k)
                    output.write(": disk ")
                    output.write(UInt64(move.disk))
                    output.write(" from ")
                    output.write(byte: letters[move.from])
                    output.write(" to ")
                    output.write(byte: letters[move.to])
                }
                output.write(byte: 10)
                if output.hasFailed { throw OutputStopped() }
            }
        } catch {}
        try output.checkWritable()
    }

    /// Stops a stream whose output failed; the failure itself is in the output.
    private struct OutputStopped: Error {}

    /// A `--from`/`--to` position: a state of peg letters, or (for `--to`) a single peg
    /// letter meaning all `allowingPeg` disks there; `nil` when the option is absent.
    static func position(
        _ parsed: ArgumentParser.Parsed, _ option: String, pegs p: Int,
        allowingPeg disks: Int? = nil
    ) throws(CommandFailure) -> HanoiPosition? {
        guard let text = parsed.option(option) else { return nil }
        guard !text.isEmpty else {
            throw .usage(
                "--\(option) needs a state (one peg letter A…\(HanoiPeg.letter(p - 1)) per disk)\(disks == nil ? "" : " or a peg letter")"
            )
        }
        do throws(HanoiError) {
            if let disks, text.count == 1 {
                guard let peg = HanoiPeg.index(of: text.first!), peg < p else {
                    throw HanoiError(
                        "\(TerminalText.quoted(text)) must be a peg letter A…\(HanoiPeg.letter(p - 1)) or a state of \(disks) letters"
                    )
                }
                return HanoiPosition(disks: disks, pegs: p, allOn: peg)
            }
            return try HanoiPosition(state: text, pegCount: p)
        } catch {
            throw .usage("--\(option): \(error.message)")
        }
    }

    static func count(_ parsed: ArgumentParser.Parsed, output: CommandOutput) throws(CommandFailure)
    {
        let n = try disks(parsed.positionals[0])
        let p = try pegs(parsed)
        output.line(String(FrameStewart.moves(disks: n, pegs: p)))
    }

    static func move(_ parsed: ArgumentParser.Parsed, output: CommandOutput) throws(CommandFailure)
    {
        let n = try disks(parsed.positionals[0])
        let plan: HanoiPlan
        do { plan = try HanoiSolver.plan(disks: n) } catch { throw .usage(error.message) }
        let k = try ValueParser.integer(
            parsed.positionals[1], name: "move number for \(n) disks", in: 1...plan.count)
        output.line("Move \(k): \(plan.move(number: k))")
    }
}
