#!/usr/bin/env python3
"""The layers keep to their includes: each folder includes only the folders it may (the READMEs of
models/, analysis/, sim/ and cli/ say why), and only sim/ sees SimGrid.

    tests/layering.py REPOSITORY_ROOT

Prints every include that crosses a line it may not, with its file and line, and every include
cycle between the project's files (a file and its header counting as one: a.cpp includes b.hpp whose
b.cpp includes a.hpp is a cycle), and exits 1 if there is any. It also runs the citation check of
tests/reference_citations.py: no file cites a document outside the repository, and every citation
of a note under docs/ by section names a section the note has. And it runs the product-data
check of tests/product_data.py: no product file refers to the tests' data (tests/data/).
"""
import pathlib
import re
import sys

from product_data import tests_data_references
from reference_citations import citation_problems

MODELS_BELOW_SCENARIO = ["models/io", "models/triton", "models/workload", "models/jobs", "models/control"]

# Folder (longest prefix wins) -> the project paths its sources may include (prefixes).
MAY_INCLUDE = {
    "models/io": ["models/io"],
    "models/triton": ["models/io", "models/triton"],
    "models/workload": ["models/io", "models/triton", "models/workload"],
    "models/jobs": ["models/io", "models/workload", "models/jobs"],
    "models/control": ["models/io", "models/workload", "models/control"],
    "models/network": ["models/network"],
    "models/scenario": MODELS_BELOW_SCENARIO + ["models/scenario"],
    "models/closed_form": MODELS_BELOW_SCENARIO + ["models/scenario", "models/closed_form"],
    "analysis": ["models", "analysis"],
    "sim": ["models", "analysis", "sim"],
    # sim/README.md: the root's engine, platform, recorder and simulated-time headers serve every
    # sub-folder; clients see servers and control, control sees servers, servers see only themselves.
    "sim/server": ["models", "analysis", "sim/*.hpp", "sim/server"],
    "sim/control": ["models", "analysis", "sim/*.hpp", "sim/server", "sim/control"],
    "sim/client": ["models", "analysis", "sim/*.hpp", "sim/server", "sim/control", "sim/client"],
    "cli": ["models", "analysis", "cli", "sim/simulation.hpp", "sim/perf_simulation.hpp"],
    "tests/models": ["models", "tests/support/scenario_support.hpp", "tests/support/input_failure.hpp",
                     "tests/support/batcher_driver.hpp", "tests/models/network/fluid_reference.hpp"],
    "tests/analysis": ["models", "analysis", "tests/support/scenario_support.hpp",
                       "tests/support/input_failure.hpp", "tests/support/validation_rows.hpp"],
    "tests/cli": ["models", "analysis", "cli"],
    "tests/sim": ["models", "analysis", "sim", "cli", "tests"],
    "tests/support": ["models", "analysis", "sim", "cli", "tests"],
}
# Folders carved out of what a folder (and every folder below it) may include. The simulation hands
# its records to the sinks declared beside analysis/records.hpp (analysis/record_sink.hpp); the
# writers of outputs/ are wired to them by the CLI, so a change to a file format never reaches sim/.
MAY_NOT_INCLUDE = {
    "sim": ["analysis/outputs"],
}
# Where SimGrid's own headers may appear.
SEES_SIMGRID = ["sim", "tests/sim", "bench"]

INCLUDE = re.compile(r'^\s*#\s*include\s+([<"])([^>"]+)[>"]')


def folder_rule(path: str):
    matches = [f for f in MAY_INCLUDE if path == f or path.startswith(f + "/")]
    return max(matches, key=len) if matches else None


def under(path: str, prefixes) -> bool:
    """Whether `path` is one of `prefixes` or below one; "DIR/*.hpp" names the headers of DIR itself."""
    def matches(p):
        if p.endswith("/*.hpp"):
            folder = p[:-len("/*.hpp")]
            return path.startswith(folder + "/") and "/" not in path[len(folder) + 1:] and path.endswith(".hpp")
        return path == p or path.startswith(p + "/")
    return any(matches(p) for p in prefixes)


def include_cycles(edges):
    """The strongly connected components of more than one unit (Tarjan's algorithm, iterative), each
    as a sorted list: a cycle of includes runs through each of them."""
    index, low, on_stack, stack, components, counter = {}, {}, set(), [], [], 0
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            advanced = False
            for nxt in successors:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(edges.get(nxt, ())))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(sorted(component))
    return components


def main() -> int:
    root = pathlib.Path(sys.argv[1]).resolve()
    problems, checked = [], 0
    units = {}  # "models/io/input_file" -> the units its .cpp and .hpp include
    for source in sorted(root.rglob("*")):
        if source.suffix not in (".cpp", ".hpp") or not source.is_file():
            continue
        rel = source.relative_to(root).as_posix()
        if rel.startswith("build"):
            continue
        rule = folder_rule(rel)
        for number, line in enumerate(source.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            match = INCLUDE.match(line)
            if not match:
                continue
            kind, target = match.groups()
            if kind == '"' and (root / target).is_file() and target.endswith(".hpp"):
                unit, included = rel.rsplit(".", 1)[0], target.rsplit(".", 1)[0]
                if unit != included:
                    units.setdefault(unit, set()).add(included)
            if kind == "<" and target.startswith("simgrid/") and not under(rel, SEES_SIMGRID):
                problems.append(f"{rel}:{number}: includes <{target}>: only sim/ knows SimGrid")
            if kind != '"' or rule is None:
                continue
            checked += 1
            if not under(target, MAY_INCLUDE[rule]) and not target.endswith(".pb.h"):
                problems.append(f"{rel}:{number}: includes \"{target}\", outside what {rule}/ may include "
                                f"({', '.join(MAY_INCLUDE[rule])})")
            for folder, barred in MAY_NOT_INCLUDE.items():
                if under(rel, [folder]) and under(target, barred):
                    problems.append(f"{rel}:{number}: includes \"{target}\", which {folder}/ may not include "
                                    f"({', '.join(barred)})")
    cycles = include_cycles(units)
    for p in problems:
        print(p)
    for c in cycles:
        print(f"include cycle among {', '.join(c)} (each counting its .hpp and .cpp)")
    print(f"layering: {checked} project includes checked, {len(problems)} across a line they may not cross, "
          f"{len(cycles)} include cycles")
    citation_errors, citations = citation_problems(root)
    for p in citation_errors:
        print(p)
    print(f"reference citations: {citations} citations of docs/ by section checked, {len(citation_errors)} problems")
    data_references = tests_data_references(root)
    for p in data_references:
        print(p)
    print(f"product data: {len(data_references)} references to tests/data/ outside tests/")
    return 1 if problems or cycles or citation_errors or data_references else 0


if __name__ == "__main__":
    sys.exit(main())
