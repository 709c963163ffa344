"""Citations stay inside the repository: no file names a document outside it, and every citation of
a document under docs/ by section ("docs/reference/triton.md §5.3") names a note and a section
heading that exist. tests/layering.py runs this check (the `layering` ctest); run alone:

    python3 tests/reference_citations.py REPOSITORY_ROOT

A reference note that lives outside the repository cannot be opened from a clone, so its path or
its file name may not appear in any file (build*/ and .git excepted). A shared note's file name is
allowed only as part of a path to a file of the repository (docs/validation-sources.md is one).
Nor may a file name the project's origin documents, which are not in it either (ORIGIN_DOCUMENTS:
the brief of its design, and its seed documents by number or together). A number taken from them
cites the paper, talk or poster it comes from, or the note under docs/reference/ that restates it.
Absolute paths of the machine the project is built on (under /work) are outside it too.
"""
import pathlib
import re
import sys

# Spelled in pieces so that this file does not itself mention them.
OUTSIDE_PATHS = ["shared" + "/reference", ".." + "/shared", "/work" + "/"]
# The origin documents by the names the project gave them, written as patterns for the same reason.
ORIGIN_DOCUMENTS = re.compile(r"(?i)\bdesign\s+brief\b|\bseeds?\s+0\d\d\b|\bthe\s+seeds[\'\u2019]")
OUTSIDE_NOTE_STEMS = ["triton-batcher", "supersonic-deployment", "cmssw-sonic-client", "amd-published", "design",
                      "validation-sources"]
OUTSIDE_NOTE = re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, OUTSIDE_NOTE_STEMS)) + r")\.md(?!\w)")
MARKDOWN_FILE = re.compile(r"[\w-]\.md(?!\w)")
PATH_CHARACTER = re.compile(r"[\w./-]")
SECTION = re.compile(r"§(\d+(?:\.\d+)*)")
# A citation's sections run from its path to the end of its parenthesis, table cell or link text.
CITATION_END = re.compile(r"[)\]|]|\n\s*\n")
HEADING_NUMBER = re.compile(r"^#+\s+(\d+(?:\.\d+)*)\.?(?:\s|$)")


def repository_files(root: pathlib.Path):
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        parts = rel.parts
        if parts[0].startswith("build") or ".git" in parts or "__pycache__" in parts or not path.is_file():
            continue
        try:
            yield rel.as_posix(), path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # images and other binary files


def resolve(root: pathlib.Path, rel: str, mentioned: str):
    """The repository file a path mentioned in `rel` names (from the root, or from rel's folder), or None."""
    for base in (root, (root / rel).parent):
        candidate = (base / mentioned).resolve()
        if candidate.is_file() and candidate.is_relative_to(root):
            return candidate
    return None


def section_numbers(note: pathlib.Path):
    numbers = set()
    for line in note.read_text(encoding="utf-8").splitlines():
        match = HEADING_NUMBER.match(line)
        if match:
            numbers.add(match.group(1))
    return numbers


def with_folders(text: str, match: re.Match):
    """The path that ends with a matched file name: the name and the folders written before it."""
    start = match.start()
    while start > 0 and PATH_CHARACTER.match(text[start - 1]):
        start -= 1
    return start, text[start:match.end()]


def markdown_paths(text: str):
    return [with_folders(text, m) for m in MARKDOWN_FILE.finditer(text)]


def line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def citation_problems(root: pathlib.Path):
    root = root.resolve()
    problems, citations, headings = [], 0, {}
    for rel, text in repository_files(root):
        for outside in OUTSIDE_PATHS:
            for match in re.finditer(re.escape(outside), text):
                problems.append(f"{rel}:{line_of(text, match.start())}: cites a path outside the repository "
                                f"(\"{outside}\"); cite a note under docs/reference/ instead")
        for match in ORIGIN_DOCUMENTS.finditer(text):
            problems.append(f"{rel}:{line_of(text, match.start())}: names \"{match.group(0)}\", a document "
                            f"outside the repository; cite the paper it took the number from, or a note under "
                            f"docs/reference/")
        for start, path in (with_folders(text, m) for m in OUTSIDE_NOTE.finditer(text)):
            if resolve(root, rel, path) is None:
                problems.append(f"{rel}:{line_of(text, start)}: names \"{path}\", a note outside the repository; "
                                f"cite a note under docs/reference/ instead")
        paths = markdown_paths(text)
        for i, (start, path) in enumerate(paths):
            after = start + len(path)
            end = paths[i + 1][0] if i + 1 < len(paths) else len(text)
            stop = CITATION_END.search(text, after, end)
            cited = SECTION.findall(text[after:stop.start() if stop else end])
            target = resolve(root, rel, path)
            if path.startswith("docs/reference/") and target is None:
                problems.append(f"{rel}:{line_of(text, start)}: cites {path}, which does not exist")
                continue
            if not cited or target is None or not target.is_relative_to(root / "docs"):
                continue
            citations += 1
            known = headings.setdefault(target, section_numbers(target))
            for number in cited:
                if number not in known:
                    problems.append(f"{rel}:{line_of(text, start)}: cites {path} §{number}, a section "
                                    f"{target.relative_to(root).as_posix()} does not have")
    return problems, citations


def main() -> int:
    problems, citations = citation_problems(pathlib.Path(sys.argv[1]))
    for p in problems:
        print(p)
    print(f"reference citations: {citations} citations of docs/ by section checked, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
