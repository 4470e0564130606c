import Foundation
import TactileCommands
import Testing

/// `tactile cradle simulate`: the CSV contract and the k-out outcome read back from it.
@Suite struct CradleCommandTests {
    /// Rows of numbers, after the header.
    func table(_ run: CommandRun) -> [[Double]] {
        run.lines.dropFirst().map { $0.split(separator: ",").map { Double($0)! } }
    }

    @Test func headerAndOneRowPerSixtiethOfASecond() {
        let run = tactile(
            "cradle", "simulate", "--balls", "4", "--seconds", "1.5", "--format", "csv")
        #expect(run.code == 0, "\(run.errors)")
        #expect(run.lines.first == "t,theta1,theta2,theta3,theta4,energy")
        let rows = table(run)
        #expect(rows.count == 91)
        for (i, row) in rows.enumerated() {
            #expect(row.count == 6)
            #expect(abs(row[0] - Double(i) / 60) < 1e-4)
        }
        // t = 0 is the release: ball 1 held at −30°, the rest hanging, all the energy there.
        #expect(rows[0] == [0, -30, 0, 0, 0, 1])
    }

    @Test(arguments: [(5, 0.0), (5, 1.0), (7, 0.0)])
    func pullingKSendsKOut(balls: Int, gap: Double) {
        for k in 1..<balls {
            let run = tactile(
                "cradle", "simulate", "--balls", "\(balls)", "--pull", "\(k)", "--angle", "30",
                "--seconds", "4", "--gap", "\(gap)", "--format", "csv")
            #expect(run.code == 0)
            let rows = table(run)
            let peaks = (1...balls).map { ball in rows.map { $0[ball] }.max()! }
            let out = peaks.filter { $0 > 15 }
            #expect(out.count == k, "K=\(k) gap=\(gap): \(peaks)")
            for peak in peaks.suffix(k) { #expect(abs(peak - 30) <= 0.6, "\(peaks)") }
            #expect(rows.last![balls + 1] > 0.99)
        }
    }

    @Test(arguments: [
        (["--balls", "1"], "--balls must be a whole number 2…9, got 1"),
        (["--balls", "ten"], "--balls must be a whole number 2…9, got \"ten\""),
        (["--pull", "5"], "--pull (with 5 balls) must be a whole number 1…4, got 5"),
        (
            ["--balls", "3", "--pull", "0"],
            "--pull (with 3 balls) must be a whole number 1…2, got 0"
        ),
        (["--angle", "95"], "--angle must be a number 0.1…90, got 95"),
        (["--angle", "nan"], "--angle must be a number 0.1…90, got \"nan\""),
        (["--seconds", "-1"], "--seconds must be a number 0…600, got -1"),
        (["--gap", "30"], "--gap must be a number 0…20, got 30"),
        (["--format", "json"], "--format must be one of csv, got \"json\""),
        (["--speed", "2"], "unknown option --speed"),
    ])
    func badValuesExitTwo(arguments: [String], message: String) {
        let output = CommandOutput()
        let errors = CommandOutput()
        let code = Tactile.run(["cradle", "simulate"] + arguments, output: output, errors: errors)
        #expect(code == 2)
        #expect(errors.text.contains(message), "stderr was: \(errors.text)")
        #expect(output.text.isEmpty)
    }

    @Test func renderCradleWritesAGIF() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("tactile-cradle-\(UUID()).gif").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = tactile("render", "cradle", "--out", path, "--size", "96x60", "--seconds", "0.5")
        #expect(run.code == 0, "\(run.errors)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.starts(with: Array("GIF89a".utf8)))
    }
}
