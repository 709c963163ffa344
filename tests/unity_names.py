#!/usr/bin/env python3
"""A target's source files compile together in batches (CMake's unity build, CMakeLists.txt), so a name
that two of them keep to themselves (in an anonymous namespace, or `static`) would be defined twice
in one batch. Which files share a batch changes as files are added, so no two source files of one
CMakeLists.txt may define the same file-local name, whichever batches they fall in today.

    tests/unity_names.py REPOSITORY_ROOT

Prints each such name with the files that define it, and exits 1 if there is any. The sources are
the .cpp files a CMakeLists.txt lists; file-local names are those defined at the start of a line
(the layout .clang-format gives) inside `namespace {` ... `}  // namespace`, and `static` ones.
"""
import collections
import pathlib
import re
import sys

FOLDERS = ["models", "analysis", "sim", "cli", "tests", "fuzz", "bench"]
DEFINITIONS = [
    re.compile(r"^using (\w+) ="),
    re.compile(r"^(?:struct|class|enum class|enum|union) (\w+)\b(?!;)"),
    re.compile(r"^(?:static |inline )*(?:constexpr |const )+[\w:<>, ]+? (\w+)(?:\[\w*\])?\s*(?:=|\{|;)"),
    re.compile(r"^(?:static |inline )*(?:constexpr |const )*[\w:<>,\*& ]+?[ \*&](\w+)\s*\("),
]


def file_local_names(path: pathlib.Path):
    names, anonymous = set(), 0
    for line in path.read_text(errors="replace").splitlines():
        if line.startswith("namespace {"):
            anonymous += 1
            continue
        if line.startswith("}  // namespace") and not line.startswith("}  // namespace ") and anonymous:
            anonymous -= 1
            continue
        if not (anonymous or line.startswith("static ")) or line.startswith((" ", "#", "/", "}", "TEST_CASE")):
            continue
        for pattern in DEFINITIONS:
            match = pattern.match(line)
            if match:
                names.add(match.group(1))
                break
    return names


def shared_names(root: pathlib.Path):
    """(CMakeLists.txt, name, files) for each file-local name defined in two sources of one CMakeLists."""
    found = []
    for folder in FOLDERS:
        for cmake in sorted((root / folder).rglob("CMakeLists.txt")):
            sources = sorted({cmake.parent / s for s in re.findall(r"([\w./-]+\.cpp)\b", cmake.read_text())})
            defined = collections.defaultdict(list)
            for source in sources:
                if source.is_file():
                    for name in file_local_names(source):
                        defined[name].append(source.relative_to(root).as_posix())
            found += [(cmake.relative_to(root).as_posix(), name, files)
                      for name, files in sorted(defined.items()) if len(files) > 1]
    return found


if __name__ == "__main__":
    shared = shared_names(pathlib.Path(sys.argv[1]).resolve())
    for cmake, name, files in shared:
        print(f"{cmake}: '{name}' is defined file-locally in {', '.join(files)}: give it a name of its own, "
              f"or share one definition")
    print(f"unity names: {len(shared)} file-local names defined in more than one source of a target")
    sys.exit(1 if shared else 0)
