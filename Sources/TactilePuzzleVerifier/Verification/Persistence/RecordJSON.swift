import TactileCore
import TactilePuzzle

/// A record's body as JSON: the one way the verifier's state is written, whole (a
/// directory's sealed state) or record by record (a shared store's).
///
/// Records move on every operation of a shared store, so they are read and written with
/// `JSONValue` rather than Foundation's coders, which cost more than the rest of it. The
/// keys are those earlier releases wrote with `Codable` (optionals left out when `nil`,
/// `TokenError` as `{"case": {}}`), so their stores still open: `VerifierStateFormatTests`
/// opens one.
protocol RecordJSON: Sendable {
    var json: JSONValue { get }
    init?(json: JSONValue)
    /// Whether a store reads records of this kind back again and again (a client's, a
    /// puzzle's), so keeps what it sealed and opened lately (`VerifierRecords.Memo`).
    static var isReadAgain: Bool { get }
}

extension RecordJSON {
    static var isReadAgain: Bool { false }
}

extension JSONValue {
    fileprivate func int(_ key: String) -> Int? {
        guard let number = self[key]?.number, number == number.rounded(), abs(number) < 1e15
        else { return nil }
        return Int(number)
    }

    /// A field that may be missing or `null`; `.some(nil)` then, `nil` for a wrong type.
    fileprivate func optional<T>(_ key: String, _ read: (JSONValue) -> T?) -> T?? {
        guard let value = self[key], value != .null else { return .some(nil) }
        return read(value).map { .some($0) }
    }
}

extension Dictionary where Key == String, Value == JSONValue {
    fileprivate mutating func set(_ key: String, _ value: JSONValue?) {
        if let value { self[key] = value }
    }
}

extension SiteBinding {
    var json: JSONValue {
        [
            "siteKey": JSONValue(siteKey), "hostname": JSONValue(hostname),
            "action": JSONValue(action),
        ]
    }

    init?(json: JSONValue) {
        guard let siteKey = json["siteKey"]?.string, let hostname = json["hostname"]?.string,
            let action = json["action"]?.string
        else { return nil }
        self.init(siteKey: siteKey, hostname: hostname, action: action)
    }
}

extension ProofOfWorkChallenge {
    /// Parts of 1 are left out, as records written before there were parts have it.
    var json: JSONValue {
        var members: [String: JSONValue] = [
            "salt": JSONValue(salt), "difficulty": JSONValue(difficulty),
        ]
        if parts != 1 { members["parts"] = JSONValue(parts) }
        return JSONValue.object(members)
    }

    init?(json: JSONValue) {
        guard let salt = json["salt"]?.string, let difficulty = json.int("difficulty") else {
            return nil
        }
        let parts = json["parts"] == nil ? 1 : json.int("parts")
        guard let parts else { return nil }
        self.init(salt: salt, difficulty: difficulty, parts: parts)
        guard hasValidParts || parts == 1 else { return nil }
    }
}

extension VerifierState.Pending: RecordJSON {
    static var isReadAgain: Bool { true }

    var json: JSONValue {
        var members: [String: JSONValue] = [
            "id": JSONValue(id), "answerX": JSONValue(answerX), "answerY": JSONValue(answerY),
            "startX": JSONValue(startX), "startY": JSONValue(startY),
            "imageWidth": JSONValue(imageWidth), "imageHeight": JSONValue(imageHeight),
            "axis": JSONValue(axis.rawValue), "client": JSONValue(client),
            "issuedAt": JSONValue(issuedAt), "expiresAt": JSONValue(expiresAt),
        ]
        members.set("site", site?.json)
        members.set("proofOfWork", proofOfWork?.json)
        members.set("pieceSide", pieceSide.map { JSONValue($0) })
        return .object(members)
    }

    init?(json: JSONValue) {
        guard let id = json["id"]?.string, let answerX = json["answerX"]?.number,
            let answerY = json["answerY"]?.number, let startX = json["startX"]?.number,
            let startY = json["startY"]?.number, let imageWidth = json.int("imageWidth"),
            let imageHeight = json.int("imageHeight"),
            let axis = json["axis"]?.string.flatMap(PuzzleAxis.init(rawValue:)),
            let client = json["client"]?.string, let issuedAt = json["issuedAt"]?.number,
            let expiresAt = json["expiresAt"]?.number,
            let site = json.optional("site", SiteBinding.init(json:)),
            let proofOfWork = json.optional("proofOfWork", ProofOfWorkChallenge.init(json:)),
            let pieceSide = json.optional(
                "pieceSide",
                { value in
                    value.number.flatMap { $0 == $0.rounded() && abs($0) < 1e15 ? Int($0) : nil }
                })
        else { return nil }
        self.init(
            id: id, answerX: answerX, answerY: answerY, startX: startX, startY: startY,
            imageWidth: imageWidth, imageHeight: imageHeight, axis: axis, client: client,
            issuedAt: issuedAt, expiresAt: expiresAt, site: site, proofOfWork: proofOfWork,
            pieceSide: pieceSide)
    }
}

extension VerifierState.Client: RecordJSON {
    static var isReadAgain: Bool { true }

    var json: JSONValue {
        var members: [String: JSONValue] = [
            "checks": .array(checks.times.map(JSONValue.number)),
            "requests": .array(requests.times.map(JSONValue.number)),
            "failures": JSONValue(failures), "lockedUntil": JSONValue(lockedUntil),
            "lastSeen": JSONValue(lastSeen),
        ]
        members.set("lockouts", lockouts.map { JSONValue($0) })
        // Counts only for merged entries, so a record without any reads as it always did.
        func counts(_ events: RecentEvents) -> JSONValue? {
            events.counts.isEmpty ? nil : .array(events.counts.map { JSONValue($0) })
        }
        members.set("checkCounts", counts(checks))
        members.set("requestCounts", counts(requests))
        return .object(members)
    }

    init?(json: JSONValue) {
        func times(_ key: String) -> [Double]? {
            guard let elements = json[key]?.array else { return nil }
            var times: [Double] = []
            times.reserveCapacity(elements.count)
            for element in elements {
                guard let time = element.number else { return nil }
                times.append(time)
            }
            return times
        }
        func counts(_ key: String) -> [Int]?? {
            json.optional(key) { value in
                guard let elements = value.array else { return nil }
                var counts: [Int] = []
                counts.reserveCapacity(elements.count)
                for element in elements {
                    guard let count = element.number.flatMap({ Int(exactly: $0) }) else {
                        return nil
                    }
                    counts.append(count)
                }
                return counts
            }
        }
        guard let checkTimes = times("checks"), let checkCounts = counts("checkCounts"),
            let checks = RecentEvents(times: checkTimes, counts: checkCounts),
            let requestTimes = times("requests"), let requestCounts = counts("requestCounts"),
            let requests = RecentEvents(times: requestTimes, counts: requestCounts),
            let failures = json.int("failures"), let lockedUntil = json["lockedUntil"]?.number,
            let lastSeen = json["lastSeen"]?.number,
            let lockouts = json.optional("lockouts", { $0.number.flatMap { Int(exactly: $0) } })
        else { return nil }
        self.init(
            checks: checks, requests: requests, failures: failures, lockedUntil: lockedUntil,
            lockouts: lockouts, lastSeen: lastSeen)
    }
}

extension TokenError {
    /// As the synthesized `Codable` writes a case without values: `{"name": {}}`.
    private static let names: [(TokenError, String)] = [
        (.malformed, "malformed"), (.badSignature, "badSignature"), (.expired, "expired"),
        (.notYetValid, "notYetValid"), (.alreadyUsed, "alreadyUsed"),
    ]

    var json: JSONValue {
        .object([Self.names.first { $0.0 == self }!.1: .object([:])])
    }

    init?(json: JSONValue) {
        guard let members = json.object, members.count == 1,
            let (name, value) = members.first, value == .object([:]),
            let error = Self.names.first(where: { $0.1 == name })?.0
        else { return nil }
        self = error
    }
}

extension VerifierState.RememberedVerification: RecordJSON {
    var json: JSONValue {
        var members: [String: JSONValue] = ["until": JSONValue(until)]
        members.set("claims", claims?.json)
        members.set("error", error?.json)
        return .object(members)
    }

    init?(json: JSONValue) {
        guard let until = json["until"]?.number,
            let claims = json.optional("claims", TokenClaims.init(json:)),
            let error = json.optional("error", TokenError.init(json:))
        else { return nil }
        self.init(claims: claims, error: error, until: until)
    }
}

extension VerifierRecords.RedeemedRecord: RecordJSON {
    var json: JSONValue { ["until": JSONValue(until)] }

    init?(json: JSONValue) {
        guard let until = json["until"]?.number else { return nil }
        self.init(until: until)
    }
}

extension VerifierState: RecordJSON {
    var json: JSONValue {
        [
            "pending": .object(pending.mapValues(\.json)),
            "issueOrder": JSONValue(issueOrder),
            "clients": .object(clients.mapValues(\.json)),
            "redeemed": .object(redeemed.mapValues(JSONValue.number)),
            "verifications": .object(verifications.mapValues(\.json)),
        ]
    }

    init?(json: JSONValue) {
        func map<T>(_ key: String, _ read: (JSONValue) -> T?) -> [String: T]? {
            guard let members = json[key]?.object else { return nil }
            var values: [String: T] = [:]
            values.reserveCapacity(members.count)
            for (name, member) in members {
                guard let value = read(member) else { return nil }
                values[name] = value
            }
            return values
        }
        guard let pending = map("pending", Pending.init(json:)),
            let order = json["issueOrder"]?.array, order.allSatisfy({ $0.string != nil }),
            let clients = map("clients", Client.init(json:)),
            let redeemed = map("redeemed", \.number),
            let verifications = map("verifications", RememberedVerification.init(json:))
        else { return nil }
        self.init()
        self.pending = pending
        issueOrder = order.compactMap(\.string)
        self.clients = clients
        self.redeemed = redeemed
        self.verifications = verifications
    }
}
