#!/usr/bin/env python3
"""Writes the drag model's text as Swift the verifier compiles: a file of figures and a file
for every TREES_PER_FILE trees, so that no file grows past a few hundred lines.

    python3 scripts/drag-model/swift_trees.py

train.py calls write() with the model it has fitted. Run alone, this reads the text and the
header back from the files already written (in this layout, or as the single file of before)
and writes them again, without training: the text `DragModel.treesText` joins stays the same
to the byte.

Layout, in Sources/TactilePuzzleVerifier/Verification/Judgement:
- DragModel+Trees.swift: `treesText`, joining the lines before the first tree (features,
  base, rate), `trees1`, `trees2`, … and the lines after the last tree (threshold);
- DragModel+Trees1.swift, DragModel+Trees2.swift, …: `trees1`, `trees2`, …, a line a node.
"""
import itertools
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FOLDER = os.path.join(ROOT, "Sources", "TactilePuzzleVerifier", "Verification", "Judgement")
MAIN = "DragModel+Trees.swift"
TREES_PER_FILE = 30
INDENT = " " * 8


def part_name(number):
    return f"DragModel+Trees{number}.swift"


def literal(lines):
    """A multi-line string literal holding `lines`, from its opening delimiter on."""
    return "\n".join(['"""'] + [INDENT + line for line in lines] + [INDENT + '"""'])


def split(text):
    """The lines before the first node, the nodes grouped by tree, and the lines after."""
    lines = text.splitlines()
    nodes = [i for i, line in enumerate(lines) if line[:1].isdigit()]
    head, tail = lines[:nodes[0]], lines[nodes[-1] + 1:]
    trees = []
    for line in lines[nodes[0]:nodes[-1] + 1]:
        if not trees or line.split(" ", 1)[0] != trees[-1][0].split(" ", 1)[0]:
            trees.append([])
        trees[-1].append(line)
    return head, trees, tail


def write(text, header, folder=FOLDER):
    """Writes `text` (the model as `DragModel(text:)` parses it) under `header` (the comment
    lines every file starts with); removes part files left from a larger model."""
    head, trees, tail = split(text)
    parts = [trees[i:i + TREES_PER_FILE] for i in range(0, len(trees), TREES_PER_FILE)]
    top = "".join(line + "\n" for line in header) + "\n"
    names = [f"trees{number}" for number in range(1, len(parts) + 1)]
    joined = [INDENT + literal(head) + ","] if head else []
    joined.append(INDENT + ", ".join(names) + ",")
    joined += [INDENT + '"' + line + '",' for line in tail]
    with open(os.path.join(folder, MAIN), "w") as f:
        f.write(top + "extension DragModel {\n")
        f.write("    /// The trained trees, parsed once by ``DragModel/trained``: the model's figures,\n")
        f.write(f"    /// its trees {TREES_PER_FILE} to a file (DragModel+Trees1.swift, …), then its threshold.\n")
        f.write("    static let treesText = [\n" + "\n".join(joined) + '\n    ].joined(separator: "\\n")\n}\n')
    first = 0
    for number, part in enumerate(parts, 1):
        lines = [line for tree in part for line in tree]
        with open(os.path.join(folder, part_name(number)), "w") as f:
            f.write(top + "extension DragModel {\n")
            f.write(f"    /// Trees {first} to {first + len(part) - 1} of ``DragModel/treesText``, a line a node.\n")
            f.write(f"    static let trees{number} = " + literal(lines) + "\n}\n")
        first += len(part)
    number = len(parts) + 1
    while os.path.exists(os.path.join(folder, part_name(number))):
        os.remove(os.path.join(folder, part_name(number)))
        number += 1
    return [MAIN] + [part_name(number) for number in range(1, len(parts) + 1)]


def literals(source):
    """The lines of each multi-line string literal in `source`, in order."""
    blocks = re.findall(r'"""\n(.*?)\n[ ]*"""', source, re.S)
    return [[line[len(INDENT):] for line in block.split("\n")] for block in blocks]


def read(folder=FOLDER):
    """The text and the header of the files already written."""
    source = open(os.path.join(folder, MAIN)).read()
    header = list(itertools.takewhile(lambda line: line.startswith("//"), source.splitlines()))
    head = [line for block in literals(source) for line in block]
    tail = re.findall(r'^ *"([^"\n]*)",$', source, re.M)
    trees, number = [], 1
    while os.path.exists(os.path.join(folder, part_name(number))):
        trees += literals(open(os.path.join(folder, part_name(number))).read())[0]
        number += 1
    return "\n".join(head + trees + tail), header


if __name__ == "__main__":
    print("wrote", ", ".join(write(*read())))
