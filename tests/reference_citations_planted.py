"""The citation check (tests/reference_citations.py) refuses what it must: in a scratch repository,
each planted citation of a document outside the repository is reported at its file and line, and
the same files without them pass. Run:

    python3 tests/reference_citations_planted.py
"""
import pathlib
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from reference_citations import citation_problems  # noqa: E402

NOTE = "# A note\n\n## 1. The only section\n\nText.\n"
CLEAN = "Cites docs/refer" + "ence/note.md §1 and the paper, arXiv:2009.04509; a random seed 7 is no document.\n"
# Built from pieces so that this file does not itself hold what the check refuses.
PLANTED = {
    "design": "The closed form (design " + "brief §1).",
    "seed-number": "As seed" + " 004 says, 2500 events/s.",
    "seed-capital": "Seed" + " 002's claim.",
    "seeds-claims": "Checked against the " + "seeds' claims.",
    "machine-path": "Sources in /work" + "/.mirror by default.",
    "missing-section": "See docs/refer" + "ence/note.md §2 for it.",
}


def problems_for(files):
    with tempfile.TemporaryDirectory() as scratch:
        root = pathlib.Path(scratch)
        (root / "docs" / "reference").mkdir(parents=True)
        (root / "docs" / "reference" / "note.md").write_text(NOTE, encoding="utf-8")
        for name, text in files.items():
            (root / name).write_text(text, encoding="utf-8")
        return citation_problems(root)[0]


def main() -> int:
    failures = []
    clean = problems_for({"clean.md": CLEAN})
    if clean:
        failures.append(f"the clean file is refused: {clean}")
    for name, line in PLANTED.items():
        problems = problems_for({"clean.md": CLEAN, f"{name}.txt": "first line\n" + line + "\n"})
        if [p for p in problems if p.startswith(f"{name}.txt:2:")] != problems or len(problems) != 1:
            failures.append(f"planted {name!r} ({line!r}): expected one problem at {name}.txt:2, got {problems}")
    for f in failures:
        print(f)
    print(f"reference citations planted: {len(PLANTED)} planted citations, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
