#!/usr/bin/env python3
"""Writes proof-of-work-cases.json: answers to proof-of-work challenges and whether each solves
its challenge, decided here with Python's hashlib, apart from the Swift verifier and the
widget's JavaScript and WebAssembly that the tests check against it.

An answer solves a challenge (salt, difficulty, parts) with `extraBits` when it is one nonce of
1 to 20 decimal digits such that SHA-256(salt ":" nonce) starts with difficulty + extraBits
zero bits, or, when parts (a power of two, 1 to 64) leaves each part a bit, exactly `parts`
different such nonces joined by commas, each with difficulty - log2(parts) + extraBits bits.

    python3 Tests/Shared/proof-of-work-cases.py > Tests/Shared/proof-of-work-cases.json
"""
import hashlib
import json


def zeros(salt, nonce):
    digest = hashlib.sha256(f"{salt}:{nonce}".encode()).digest()
    value = int.from_bytes(digest, "big")
    return 256 - value.bit_length()


def solves(salt, difficulty, parts, answer, extra):
    nonces = answer.split(",")
    split = parts.bit_length() - 1
    if len(nonces) == 1:
        bits = difficulty + extra
    elif len(nonces) == parts and 1 <= parts <= 64 and parts & (parts - 1) == 0 and difficulty > split:
        bits = difficulty - split + extra
    else:
        return False
    return len(set(nonces)) == len(nonces) and all(
        1 <= len(n) <= 20 and n.isascii() and n.isdigit() and zeros(salt, n) >= bits for n in nonces)


def widget_nonces(salt, bits, how_many, start_block=0):
    """The first nonces of the widget's 12-digit layout (block, lane, 3 digits) with `bits` zero bits."""
    found, block = [], start_block
    while len(found) < how_many:
        for index in range(4000):
            nonce = f"{block:08d}{index // 1000}{index % 1000:03d}"
            if zeros(salt, nonce) >= bits:
                found.append(nonce)
        block += 1
    return found[:how_many]


def plain_nonces(salt, bits, how_many):
    found, n = [], 0
    while len(found) < how_many:
        if zeros(salt, str(n)) >= bits:
            found.append(str(n))
        n += 1
    return found


def main():
    salts = ["5d1c0a7e93b24f68a1e0c3b79d2f4a65", "0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f", "a", "s" * 60]
    cases = []

    def case(salt, difficulty, parts, answer, extra=0, note=""):
        cases.append({"note": note, "salt": salt, "difficulty": difficulty, "parts": parts,
                      "answer": answer, "extraBits": extra,
                      "solved": solves(salt, difficulty, parts, answer, extra)})

    for salt in salts:
        one = plain_nonces(salt, 10, 1)[0]
        case(salt, 10, 16, one, note="one decimal nonce with all 10 bits, as the first clients send")
        case(salt, 10, 1, one, note="one nonce, no parts offered")
        case(salt, 12, 16, one, note="one nonce, 2 bits more asked")
        many = widget_nonces(salt, 6, 16)
        case(salt, 10, 16, ",".join(many), note="16 of the widget's 12-digit nonces with 6 zero bits")
        deep = widget_nonces(salt, 8, 16)
        case(salt, 10, 16, ",".join(deep), extra=2, note="the price alone in parts: 2 more bits each")
        case(salt, 10, 16, ",".join(many), extra=2, note="the price's nonces do not pay the price alone")
    salt = salts[0]
    part = plain_nonces(salt, 6, 40)
    single_part = next(n for n in part if zeros(salt, n) < 10)
    case(salt, 10, 16, single_part, note="one nonce with a part's bits only")
    case(salt, 10, 1, ",".join(part[:2]), note="two nonces where no parts are offered")
    case(salt, 10, 16, ",".join(part[:2]), note="two nonces where 16 parts are offered")
    case(salt, 10, 12, ",".join(part[:12]), note="parts that are not a power of two")
    case(salt, 4, 16, ",".join(plain_nonces(salt, 1, 16)), note="parts that would leave no bit")
    many = widget_nonces(salt, 6, 16)
    case(salt, 10, 16, ",".join(many[:15]), note="one nonce too few")
    case(salt, 10, 16, ",".join(many + many[:1]), note="one nonce too many")
    case(salt, 10, 16, ",".join(many[:15] + many[:1]), note="the same nonce twice")
    twin = next(n for n in map(str, range(10**6)) if zeros(salt, n) >= 6 and zeros(salt, "0" + n) >= 6)
    case(salt, 10, 16, ",".join(many[:14] + [twin, "0" + twin]),
         note="the same value as another text: a different nonce")
    misses = [n for n in (f"{b:08d}{i // 1000}{i % 1000:03d}" for b in range(2) for i in range(4000)) if zeros(salt, n) < 6]
    case(salt, 10, 16, ",".join(many[:15] + misses[:1]), note="one nonce short of the bits")
    case(salt, 10, 16, ",".join(many[:15]) + ",", note="an empty nonce")
    case(salt, 10, 16, ",".join(many[:15] + [many[15] + " "]), note="a nonce with a space")
    case(salt, 10, 16, ",".join(many[:15] + ["-1"]), note="a sign")
    case(salt, 10, 16, ",".join(many[:15] + ["1" * 21]), note="21 digits")
    twenty = next(f"{n:020d}" for n in range(100000) if zeros(salt, f"{n:020d}") >= 6)
    case(salt, 10, 16, ",".join(many[:15] + [twenty]), note="20 digits, leading zeros")
    case(salt, 10, 16, ";".join(many), note="another separator")
    case(salt, 10, 1, "", note="nothing")
    print(json.dumps({"about": __doc__.strip().splitlines()[0:4], "cases": cases}, indent=1))


if __name__ == "__main__":
    main()
