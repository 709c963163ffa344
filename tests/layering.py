#!/usr/bin/env python3
"""The layers keep to their includes: each folder includes only the folders it may (the READMEs of
models/, analysis/, sim/ and cli/ say why), and only sim/ sees SimGrid.

    tests/layering.py REPOSITORY_ROOT

Prints every include that crosses a line it may not, with its file and line, and exits 1 if any does.
"""
import pathlib
import re
import sys

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
    # sub-folder; clients see servers and control, control sees servers, servers only tell the proxy.
    "sim/server": ["models", "analysis", "sim/*.hpp", "sim/server", "sim/control/proxy.hpp"],
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


def main() -> int:
    root = pathlib.Path(sys.argv[1]).resolve()
    problems, checked = [], 0
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
            if kind == "<" and target.startswith("simgrid/") and not under(rel, SEES_SIMGRID):
                problems.append(f"{rel}:{number}: includes <{target}>: only sim/ knows SimGrid")
            if kind != '"' or rule is None:
                continue
            checked += 1
            if not under(target, MAY_INCLUDE[rule]) and not target.endswith(".pb.h"):
                problems.append(f"{rel}:{number}: includes \"{target}\", outside what {rule}/ may include "
                                f"({', '.join(MAY_INCLUDE[rule])})")
    for p in problems:
        print(p)
    print(f"layering: {checked} project includes checked, {len(problems)} across a line they may not cross")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
