import Foundation
import Testing

@testable import TactileCore
@testable import TactilePuzzle

/// The session against the table of cases the browser widget's `session.js` is tested with
/// too (`Tests/Shared/puzzle-session.json`): each step's effects, as a whole array, in the
/// table's JSON shapes.
@Suite struct PuzzleSessionTests {
    static let tablePath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Shared/puzzle-session.json").path

    static func cases() throws -> [JSONValue] {
        let bytes = try #require(FileManager.default.contents(atPath: tablePath))
        return try #require(try JSONValue.parse(Array(bytes)).array)
    }

    @Test func theTableHasCasesForEveryEventAndEffect() throws {
        var events: Set<String> = []
        var effects: Set<String> = []
        for entry in try Self.cases() {
            for step in entry["steps"]?.array ?? [] {
                events.insert(step["event"]?["type"]?.string ?? "")
                for effect in step["effects"]?.array ?? [] {
                    effects.insert(effect["type"]?.string ?? "")
                }
            }
        }
        #expect(
            events == [
                "newPuzzle", "challengeLoaded", "challengeRefused", "answerStarted", "answered",
                "verdictArrived", "checkFailed", "timePassed",
            ])
        #expect(effects == ["fetch", "submit", "settle", "token", "show", "schedule"])
    }

    @Test func everyCaseOfTheTable() throws {
        for entry in try Self.cases() {
            let name = entry["name"]?.string ?? "?"
            var session = PuzzleSession()
            if let pause = entry["options"]?["failurePause"]?.number {
                session.failurePause = pause
            }
            for (index, step) in (entry["steps"]?.array ?? []).enumerated() {
                let now = try #require(step["now"]?.number, "\(name) step \(index): no now")
                let event = try Self.event(try #require(step["event"]))
                let got = session.handle(event, now: now).map(Self.json)
                let expected = step["effects"]?.array ?? []
                #expect(
                    Self.same(.array(got), .array(expected)),
                    "\(name), step \(index) (\(event)): got \(String(decoding: JSONValue.array(got).serialized(), as: UTF8.self))"
                )
            }
        }
    }

    /// The table's event as the session's.
    static func event(_ json: JSONValue) throws -> PuzzleSession.Event {
        let request = json["request"]?.number.map { Int($0) } ?? -1
        switch json["type"]?.string {
        case "newPuzzle": return .newPuzzle
        case "challengeLoaded":
            return .challengeLoaded(request: request, lifetime: json["lifetime"]?.number)
        case "challengeRefused":
            if let wait = json["retryAfter"]?.number {
                return .challengeLocked(request: request, retryAfter: wait)
            }
            return .challengeUnavailable(request: request, reason: json["reason"]?.string ?? "")
        case "answerStarted": return .answerStarted
        case "answered": return .answered
        case "verdictArrived":
            let verdict: PuzzleVerdict =
                switch json["verdict"]?.string {
                case "passed":
                    .passed(
                        snapTo: nil, token: json["token"]?.string,
                        tokenLifetime: json["lifetime"]?.number)
                case "expired": .expired
                case "locked": .locked(retryAfter: json["retryAfter"]?.number)
                default: .notPassed
                }
            return .verdictArrived(request: request, verdict)
        case "checkFailed":
            return .checkFailed(request: request, reason: json["reason"]?.string ?? "")
        case "timePassed": return .timePassed
        case let other:
            throw JSONError(offset: 0, reason: "unknown event \(other ?? "without a type")")
        }
    }

    /// The session's effect in the table's shape.
    static func json(_ effect: PuzzleSession.Effect) -> JSONValue {
        switch effect {
        case .fetch(let request): ["type": "fetch", "request": JSONValue(request)]
        case .submit(let request): ["type": "submit", "request": JSONValue(request)]
        case .settle(let verdict):
            [
                "type": "settle",
                "verdict": JSONValue(verdict.code == "rate-limited" ? "locked" : verdict.code),
            ]
        case .token(let token): ["type": "token", "token": token.map(JSONValue.string) ?? .null]
        case .show(let phase, let notice):
            show(phase, notice: notice)
        case .schedule(let at): ["type": "schedule", "at": JSONValue(at)]
        }
    }

    static func show(_ phase: PuzzleSession.Phase, notice: PuzzleSession.Notice?) -> JSONValue {
        var fields: [String: JSONValue] = ["type": "show"]
        switch phase {
        case .loading: fields["phase"] = "loading"
        case .ready: fields["phase"] = "ready"
        case .checking: fields["phase"] = "checking"
        case .passed: fields["phase"] = "passed"
        case .failed: fields["phase"] = "failed"
        case .locked(let until):
            fields["phase"] = "locked"
            fields["until"] = JSONValue(until)
        case .unavailable(let reason):
            fields["phase"] = "unavailable"
            fields["reason"] = JSONValue(reason)
        }
        if let notice { fields["notice"] = JSONValue(notice.rawValue) }
        return .object(fields)
    }

    /// Equal, numbers within a millionth (sums of decimals differ in their last bits).
    static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)): abs(x - y) < 1e-6
        case (.array(let x), .array(let y)): x.count == y.count && zip(x, y).allSatisfy(same)
        case (.object(let x), .object(let y)):
            Set(x.keys) == Set(y.keys) && x.allSatisfy { key, value in same(value, y[key]!) }
        default: a == b
        }
    }
}
