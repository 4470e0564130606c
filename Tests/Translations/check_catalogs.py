#!/usr/bin/env python3
"""Checks the translations against the messages in the sources.

    check_catalogs.py TEMPLATE PO...

TEMPLATE is the template the sources give now (scripts/extract-strings.py --output FILE).
For each PO file (po/LANG.po) it checks:

  - the header: a UTF-8 charset, a Language, and Plural-Forms with nplurals;
  - every message of the template is translated: present, not fuzzy, the same plural form
    in English, a non-empty msgstr (each of the nplurals forms for a plural message);
  - each translation has the same placeholders ({1}, {2}, …) as its English, no more and no
    fewer (order may change);
  - no stale entries: nothing the template no longer has, obsolete (#~) entries included.

Prints one line per problem and "LANG: N messages, all translated" per good catalogue; exits
1 when there is a problem. msgfmt --check is run by Tests/Translations/run.sh.
"""
import re
import sys

PLACEHOLDER = re.compile(r"\{[1-9]\}")


class Entry:
    def __init__(self, line):
        self.line = line
        self.flags = set()
        self.msgid = None
        self.plural = None
        self.msgstr = {}  # index (0 for a plain msgstr) -> text
        self.obsolete = False


def unquote(text, where):
    if not (len(text) >= 2 and text[0] == '"' and text[-1] == '"'):
        raise ValueError(f"{where}: expected a quoted string, got {text!r}")
    out, i, body = [], 0, text[1:-1]
    escapes = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}
    while i < len(body):
        c = body[i]
        if c == "\\":
            if i + 1 >= len(body) or body[i + 1] not in escapes:
                raise ValueError(f"{where}: unknown escape in {text!r}")
            out.append(escapes[body[i + 1]])
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def parse(path):
    """The entries of a PO or POT file, the header (msgid "") first."""
    entries, entry, field = [], None, None
    with open(path, encoding="utf-8") as file:
        lines = file.read().split("\n")
    for number, raw in enumerate(lines, 1):
        where = f"{path}:{number}"
        line = raw.strip()
        obsolete = line.startswith("#~")
        if obsolete:
            line = line[2:].strip()
        if not line:
            entry, field = None, None
            continue
        if line.startswith("#") and not obsolete:
            if entry is None or entry.msgid is not None:
                entry = Entry(number)
                entries.append(entry)
            if line.startswith("#,"):
                entry.flags |= {f.strip() for f in line[2:].split(",")}
            continue
        keyword, _, rest = line.partition(" ")
        if line.startswith('"'):
            if entry is None or field is None:
                raise ValueError(f"{where}: a string with no keyword before it")
            text = unquote(line, where)
            if field == "msgid":
                entry.msgid += text
            elif field == "msgid_plural":
                entry.plural += text
            else:
                entry.msgstr[field] += text
            continue
        if entry is None or (keyword in ("msgid", "msgctxt") and entry.msgid is not None):
            entry = Entry(number)
            entries.append(entry)
        entry.obsolete = entry.obsolete or obsolete
        if keyword == "msgctxt":
            raise ValueError(f"{where}: msgctxt is not used by Tactile's messages")
        if keyword == "msgid":
            entry.msgid, field = unquote(rest, where), "msgid"
        elif keyword == "msgid_plural":
            entry.plural, field = unquote(rest, where), "msgid_plural"
        elif keyword == "msgstr":
            entry.msgstr[0], field = unquote(rest, where), 0
        elif (m := re.fullmatch(r"msgstr\[(\d+)\]", keyword)):
            index = int(m.group(1))
            entry.msgstr[index], field = unquote(rest, where), index
        else:
            raise ValueError(f"{where}: unexpected line {raw!r}")
    return entries


def header_fields(entries, path):
    if not entries or entries[0].msgid != "":
        raise ValueError(f"{path}: no header entry (msgid \"\") first")
    fields = {}
    for line in entries[0].msgstr.get(0, "").split("\n"):
        name, sep, value = line.partition(":")
        if sep:
            fields[name.strip()] = value.strip()
    return fields


def check(template_path, po_path):
    problems = []
    template = {e.msgid: e for e in parse(template_path)[1:] if not e.obsolete}
    entries = parse(po_path)
    fields = header_fields(entries, po_path)
    if "charset=UTF-8" not in fields.get("Content-Type", ""):
        problems.append(f"{po_path}: the header's Content-Type is not text/plain; charset=UTF-8")
    if not fields.get("Language"):
        problems.append(f"{po_path}: the header has no Language")
    match = re.search(r"nplurals\s*=\s*(\d+)", fields.get("Plural-Forms", ""))
    if not match:
        problems.append(f"{po_path}: the header has no Plural-Forms with nplurals")
        nplurals = 2
    else:
        nplurals = int(match.group(1))
    if "fuzzy" in entries[0].flags:
        problems.append(f"{po_path}: the header is marked fuzzy (msgfmt would ignore it)")

    seen = set()
    for entry in entries[1:]:
        where = f"{po_path}:{entry.line}"
        shown = entry.msgid if len(entry.msgid or "") <= 60 else entry.msgid[:57] + "..."
        if entry.obsolete:
            problems.append(f"{where}: a stale obsolete entry (#~) {shown!r}; delete it")
            continue
        if entry.msgid in seen:
            problems.append(f"{where}: {shown!r} is in the catalogue twice")
            continue
        seen.add(entry.msgid)
        english = template.get(entry.msgid)
        if english is None:
            problems.append(f"{where}: a stale entry {shown!r}: the sources no longer have it")
            continue
        if "fuzzy" in entry.flags:
            problems.append(f"{where}: {shown!r} is fuzzy; check the translation and drop the "
                            "fuzzy flag")
        if entry.plural != english.plural:
            problems.append(f"{where}: {shown!r} has msgid_plural {entry.plural!r}, the "
                            f"sources {english.plural!r}")
            continue
        expected = set(PLACEHOLDER.findall(entry.msgid))
        if entry.plural is None:
            forms = [0]
            if set(entry.msgstr) != {0}:
                problems.append(f"{where}: {shown!r} has plural msgstr[] forms; it has no plural")
                continue
        else:
            expected |= set(PLACEHOLDER.findall(entry.plural))
            forms = list(range(nplurals))
            if sorted(entry.msgstr) != forms:
                problems.append(f"{where}: {shown!r} has forms {sorted(entry.msgstr)}, "
                                f"expected msgstr[0]…msgstr[{nplurals - 1}]")
                continue
        for form in forms:
            text = entry.msgstr[form]
            label = "msgstr" if entry.plural is None else f"msgstr[{form}]"
            if not text.strip():
                problems.append(f"{where}: {shown!r} is not translated ({label} is empty)")
                continue
            found = set(PLACEHOLDER.findall(text))
            if found != expected:
                problems.append(
                    f"{where}: {shown!r}: {label} has the placeholders "
                    f"{sorted(found) or 'none'}, the English {sorted(expected) or 'none'}")
    for msgid in template:
        if msgid not in seen:
            shown = msgid if len(msgid) <= 60 else msgid[:57] + "..."
            problems.append(f"{po_path}: no entry for {shown!r} (update the catalogue: "
                            f"msgmerge --update {po_path} po/tactile.pot, then translate)")
    return problems, len(template)


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    template, catalogues = argv[0], argv[1:]
    failed = False
    for po in catalogues:
        try:
            problems, count = check(template, po)
        except (OSError, ValueError) as error:
            problems, count = [str(error)], 0
        for problem in problems:
            print(problem)
        if problems:
            failed = True
            print(f"{po}: {len(problems)} problems")
        else:
            print(f"{po}: {count} messages, all translated")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
