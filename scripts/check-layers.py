#!/usr/bin/python3
"""Checks the package's modules against the layering README.md states (its "Layout" table).

- Every library and program module of Package.swift has a row, and every row a module.
- Package.swift puts each module in the group (`// MARK: - <layer>`) of its layer.
- A module depends only on modules of its own layer or the layers above it.
- A module reaches a C library (a `C…` module) only when its row names it.
- What a module's sources import is what Package.swift says it depends on: no import of a
  module it does not declare, and no declared module that none of its files imports.
- The tests mirror the modules: every library module has one test target, named after it
  (`<Module>Tests`), and every test target is named after a module. The benchmarks are the
  exception: scripts/test.sh runs every suite of them once instead.

Prints each breach and exits 1 when there is one; run from anywhere. Needs `swift` (for
`swift package dump-package`, which reads the manifest without building).
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Library modules tested otherwise than by a test target of their own.
UNTESTED_BY_TARGET = {"TactileBenchmarks"}


def stated_layers():
    """[(layer, module, C libraries)] in the README's order."""
    with open(os.path.join(ROOT, "README.md")) as file:
        text = file.read()
    section = text.split("\n## Layout\n", 1)[1].split("\n## ", 1)[0]
    rows = []
    layer = None
    for line in section.splitlines():
        if not line.startswith("|"):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if cells[0] == "layer" or set("".join(cells)) <= set("-"):
            continue  # the header and the line under it
        layer = cells[0] or layer
        if layer is None:
            raise SystemExit("check-layers: README's Layout table starts without a layer")
        libraries = set(re.findall(r"`(\w+)`", cells[2]))
        for module in re.findall(r"`([\w-]+)`", cells[1]):
            rows.append((layer, module, libraries))
    if not rows:
        raise SystemExit("check-layers: no Layout table found in README.md")
    return rows


def manifest():
    """{target name: (type, [dependency names], path)} from `swift package dump-package`."""
    dump = subprocess.run(["swift", "package", "--package-path", ROOT, "dump-package"],
                          check=True, capture_output=True, text=True).stdout
    targets = {}
    for target in json.loads(dump)["targets"]:
        names = []
        for dependency in target["dependencies"]:
            (kind, value), = dependency.items()
            names.append(value[0])
        path = target.get("path") or os.path.join("Sources", target["name"])
        targets[target["name"]] = (target["type"], names, path)
    return targets


def manifest_groups():
    """{target name: the `// MARK: -` heading of the Package.swift group that declares it}."""
    with open(os.path.join(ROOT, "Package.swift")) as file:
        text = file.read()
    marks = [(m.start(), m.group(1)) for m in re.finditer(r"// MARK: - (.+?)[ \t]*$", text, re.MULTILINE)]
    groups = {}
    declaration = r'\.(?:target|executableTarget|systemLibrary|testTarget)\(\s*name:\s*"([\w-]+)"'
    for match in re.finditer(declaration, text):
        headings = [heading for start, heading in marks if start < match.start()]
        groups[match.group(1)] = headings[-1] if headings else None
    return groups


def imports(path):
    """The modules the Swift files under `path` import."""
    found = set()
    pattern = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate)\s+)?"
                         r"import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?(\w+)",
                         re.MULTILINE)
    for folder, _, files in os.walk(os.path.join(ROOT, path)):
        for name in files:
            if name.endswith(".swift"):
                with open(os.path.join(folder, name)) as file:
                    found.update(pattern.findall(file.read()))
    return found


def main():
    rows = stated_layers()
    layer_order = []
    for layer, _, _ in rows:
        if layer not in layer_order:
            layer_order.append(layer)
    stated = {module: (layer, libraries) for layer, module, libraries in rows}
    targets = manifest()
    groups = manifest_groups()
    ours = {name for name, (kind, _, _) in targets.items() if kind in ("regular", "executable")
            and not targets[name][2].startswith("Tests")}
    system = {name for name, (kind, _, _) in targets.items() if kind == "system"}
    problems = []
    for module in sorted(ours - stated.keys()):
        problems.append(f"{module} is in Package.swift but has no row in README's Layout table")
    for module in sorted(stated.keys() - ours):
        problems.append(f"README's Layout table names {module}, which Package.swift does not have")
    for module in sorted(ours & stated.keys()):
        layer, libraries = stated[module]
        kind, dependencies, path = targets[module]
        if groups.get(module) != layer:
            problems.append(f"{module}: Package.swift declares it under "
                            f"'{groups.get(module)}', README's layer is '{layer}'")
        rank = layer_order.index(layer)
        for dependency in dependencies:
            if dependency in system:
                if dependency not in libraries:
                    problems.append(f"{module} uses the C library {dependency}, which its row "
                                    "in README does not name")
            elif dependency in stated and layer_order.index(stated[dependency][0]) > rank:
                problems.append(f"{module} ({layer}) depends on {dependency} "
                                f"({stated[dependency][0]}), a layer below it")
        for library in sorted(libraries - set(dependencies)):
            problems.append(f"README names {library} for {module}, which does not depend on it")
        imported = imports(path) & (ours | system)
        for name in sorted(imported - set(dependencies) - {module}):
            problems.append(f"{module} imports {name} without declaring it in Package.swift")
        for name in sorted(set(dependencies) - imported):
            problems.append(f"{module} declares {name} in Package.swift, and no file of it "
                            "imports it")
    tests = {name for name, (kind, _, _) in targets.items() if kind == "test"}
    libraries = {name for name in ours if targets[name][0] == "regular"}
    for module in sorted(libraries - UNTESTED_BY_TARGET - {name[:-len("Tests")] for name in tests}):
        problems.append(f"{module} has no test target of its own ({module}Tests)")
    for name in sorted(tests):
        if not name.endswith("Tests") or name[:-len("Tests")] not in ours:
            problems.append(f"the test target {name} is not named after a module")
    for problem in problems:
        print(f"check-layers: {problem}")
    if problems:
        return 1
    print(f"check-layers: {len(ours)} modules in {len(layer_order)} layers "
          f"({', '.join(layer_order)}) as README states; {len(tests)} test targets, each named after the module it tests")
    return 0


if __name__ == "__main__":
    sys.exit(main())
