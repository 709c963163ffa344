"""Product data lives outside tests/ (data/, scenarios/, calibration/): tests may read it, but nothing
the product reads, builds from or shows its users refers to the tests' data (tests/data/).
tests/layering.py runs this check (the `layering` ctest); run alone:

    python3 tests/product_data.py REPOSITORY_ROOT

The fuzzing and sanitizer scripts are test tools: they feed the tests' inputs to the fuzzers and to
sanitized runs, so they may name tests/data/.
"""
import pathlib
import sys

PRODUCT = ["README.md", "CMakeLists.txt", "scenarios", "docs", "cli", "models", "sim", "analysis", "scripts", "data",
           "bench", "calibration"]
TEST_TOOLS = ["scripts/fuzz.sh", "scripts/sanitize.sh"]
TESTS_DATA = b"tests/data/"


def tests_data_references(root: pathlib.Path):
    """`file:line: ...` for each line of a product file that names a path under tests/data/."""
    found = []
    for top in PRODUCT:
        start = root / top
        files = [start] if start.is_file() else sorted(p for p in start.rglob("*") if p.is_file())
        for path in files:
            rel = path.relative_to(root).as_posix()
            if rel in TEST_TOOLS or "__pycache__" in path.parts:
                continue
            for number, line in enumerate(path.read_bytes().splitlines(), 1):
                if TESTS_DATA in line:
                    found.append(f"{rel}:{number}: refers to the tests' data (tests/data/): product data lives "
                                 f"outside tests/")
    return found


if __name__ == "__main__":
    problems = tests_data_references(pathlib.Path(sys.argv[1]).resolve())
    for p in problems:
        print(p)
    print(f"product data: {len(problems)} references to tests/data/ outside tests/")
    sys.exit(1 if problems else 0)
