#!/usr/bin/env python3
"""A target's source files compile together in batches (CMake's unity build, CMakeLists.txt), so a name
that two of them keep to themselves (in an anonymous namespace, or `static`) would be defined twice
in one batch. Which files share a batch changes as files are added, so no two source files of one
CMakeLists.txt may define the same file-local name, whichever batches they fall in today.

    tests/unity_names.py REPOSITORY_ROOT

Prints each such name with the files that define it, and exits 1 if there is any. The sources are
the .cpp files a CMakeLists.txt lists; file-local names are those defined at the start of a line
(the layout .clang-format gives) inside `namespace {` ... `}  // namespace`, and `static` ones.

A file's `using namespace sonicsim::network;` reaches the files after it in its batch too, and with it
the namespaces nested there: had sonicsim::network a namespace `test` beside sonicsim::test, every
`test::` in those files would be ambiguous. So no two namespaces of the tree share their last name.
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


NAMESPACE_OPEN = re.compile(r"^namespace ([\w:]+) \{")
NAMESPACE_CLOSE = re.compile(r"^\}  // namespace( \S+)?$")


def lines_in_namespaces(text: str):
    """Each line of a file with the namespaces open there, innermost last: (full name, anonymous?), a
    nested one named within its parent, an anonymous one by its parent's name."""
    stack = []
    for line in text.splitlines():
        opened = NAMESPACE_OPEN.match(line)
        if line.startswith("namespace {"):
            stack.append((stack[-1][0] if stack else "", True))
        elif opened:
            stack.append(("::".join(filter(None, [stack[-1][0] if stack else "", opened.group(1)])), False))
        yield line, stack
        if NAMESPACE_CLOSE.match(line) and stack:
            stack.pop()


def file_local_names(path: pathlib.Path):
    names = set()
    for line, stack in lines_in_namespaces(path.read_text(errors="replace")):
        anonymous = any(is_anonymous for _, is_anonymous in stack)
        skipped = line.startswith((" ", "#", "/", "}", "TEST_CASE", "namespace "))
        if skipped or not (anonymous or line.startswith("static ")):
            continue
        for pattern in DEFINITIONS:
            match = pattern.match(line)
            if match:
                names.add(match.group(1))
                break
    return names


def namespaces(text: str):
    """The full names of the namespaces a file opens (nested ones within their parents)."""
    return {name for _, stack in lines_in_namespaces(text) for name, is_anonymous in stack if not is_anonymous}


def namespaces_sharing_a_name(texts):
    """{last name: sorted full names} for the names that more than one namespace ends in."""
    by_last = collections.defaultdict(set)
    for text in texts:
        for full in namespaces(text):
            by_last[full.split("::")[-1]].add(full)
    return {last: sorted(fulls) for last, fulls in sorted(by_last.items()) if len(fulls) > 1}


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


def self_test():
    """The namespace rule on planted files: a nested `test` beside sonicsim::test is found, and
    anonymous namespaces, a closer without a name and one namespace opened twice are not."""
    own = "namespace sonicsim {\nnamespace test {\n}  // namespace test\n}  // namespace sonicsim\n"
    again = "namespace sonicsim::test {\nnamespace {\n}  // namespace\n}  // namespace sonicsim::test\n"
    nested = "namespace sonicsim::network::test {\n}  // namespace sonicsim::network::test\n"
    assert namespaces(own) == {"sonicsim", "sonicsim::test"}, namespaces(own)
    assert namespaces_sharing_a_name([own, again]) == {}
    found = namespaces_sharing_a_name([own, again, nested])
    assert found == {"test": ["sonicsim::network::test", "sonicsim::test"]}, found


if __name__ == "__main__":
    self_test()
    root = pathlib.Path(sys.argv[1]).resolve()
    shared = shared_names(root)
    for cmake, name, files in shared:
        print(f"{cmake}: '{name}' is defined file-locally in {', '.join(files)}: give it a name of its own, "
              f"or share one definition")
    print(f"unity names: {len(shared)} file-local names defined in more than one source of a target")
    texts = [path.read_text(errors="replace") for folder in FOLDERS for pattern in ("*.cpp", "*.hpp")
             for path in sorted((root / folder).rglob(pattern))]
    clashes = namespaces_sharing_a_name(texts)
    for last, fulls in clashes.items():
        print(f"namespaces {', '.join(fulls)} share the name '{last}': a file's using-directive makes it "
              "ambiguous in the files after it in a unity batch; rename one")
    print(f"unity names: {len(clashes)} namespace names used by more than one namespace")
    sys.exit(1 if shared or clashes else 0)
