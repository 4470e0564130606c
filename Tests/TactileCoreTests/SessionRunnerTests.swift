import TactileCore
import Testing

/// A runner carries out each step's effects in order, and a step asked for while effects run
/// waits for them.
@Suite struct SessionRunnerTests {
    /// A session that counts, and the log of what the host did.
    final class Host {
        var count = 0
        var log: [String] = []
        var runner: SessionRunner<String>!

        init(echo: Bool) {
            runner = SessionRunner(
                perform: { [unowned self] effect in
                    log.append(effect)
                    // An effect that reports back at once, as a verdict already known does.
                    if echo, effect == "ask" { runner.run { self.step("answer") } }
                },
                settled: { [unowned self] in log.append("settled at \(count)") })
        }

        func step(_ name: String) -> [String] {
            count += 1
            return name == "start"
                ? ["show \(count)", "ask", "show again \(count)"] : ["got \(name) at \(count)"]
        }
    }

    @Test func effectsRunInOrderAndASecondStepWaitsForThem() {
        let host = Host(echo: true)
        host.runner.run { host.step("start") }
        #expect(
            host.log == [
                "show 1", "ask", "show again 1", "settled at 1", "got answer at 2", "settled at 2",
            ])
    }

    @Test func stepsOneAfterAnotherEachSettle() {
        let host = Host(echo: false)
        host.runner.run { host.step("start") }
        host.runner.run { host.step("tap") }
        #expect(
            host.log == [
                "show 1", "ask", "show again 1", "settled at 1", "got tap at 2", "settled at 2",
            ])
    }
}
