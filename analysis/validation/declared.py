"""The declared unknowns of a scenario ({"between": ...} / {"one_of": ...}, scenarios/README.md "Declared
unknowns") and their nominal values, as `sonicsim run` takes them for its nominal run
(models/scenario/unknowns/declared_unknown.cpp, DeclaredUnknown::nominal: a range at its median, a choice at
its first alternative). Commands that need one value (`analytic`) get these through --set.
"""
import json
import math
import re

NUMBER_WITH_UNIT = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([^\s\d.+-][^\s]*)?\s*$")


def find(document, pointer=""):
    """[(JSON pointer, declaration)] of every declared unknown in the document, in document order."""
    if isinstance(document, dict):
        if "between" in document or "one_of" in document:
            return [(pointer, document)]
        out = []
        for key, value in document.items():
            out += find(value, f"{pointer}/{key.replace('~', '~0').replace('/', '~1')}")
        return out
    if isinstance(document, list):
        return [x for i, value in enumerate(document) for x in find(value, f"{pointer}/{i}")]
    return []


def _number(end):
    if isinstance(end, (int, float)):
        return float(end), ""
    m = NUMBER_WITH_UNIT.match(str(end))
    if not m:
        raise ValueError(f"not a number with one unit: {end!r}")
    return float(m.group(1)), m.group(2) or ""


def _quantile(low, high, shape, mode, u):
    if shape == "log-uniform":
        return low * (high / low) ** u
    if shape == "triangular":
        width, left = high - low, (mode - low) / (high - low)
        return low + math.sqrt(u * width * (mode - low)) if u < left else high - math.sqrt((1 - u) * width * (high - mode))
    return low + u * (high - low)


def _range(declaration):
    """(low, high, unit, shape, mode) of a range declaration."""
    lo_end, hi_end = declaration["between"]
    (low, unit), (high, _) = _number(lo_end), _number(hi_end)
    shape = declaration.get("distribution", "uniform")
    mode = _number(declaration["mode"])[0] if "mode" in declaration else (low + high) / 2
    return low, high, unit, shape, mode


def at(declaration, u):
    """A range's value at quantile u of its distribution: (number, unit), the unit as the range's ends give it."""
    low, high, unit, shape, mode = _range(declaration)
    return _quantile(low, high, shape, mode, u), unit


def number_with_unit(text):
    """(number, unit) of a scenario value such as "4.11ms" or 2048."""
    return _number(text)


def nominal(declaration):
    """The value `sonicsim run`'s nominal run gives the declaration (JSON-ready)."""
    if "one_of" in declaration:
        return declaration["one_of"][0]
    lo_end, hi_end = declaration["between"]
    if isinstance(lo_end, int) and isinstance(hi_end, int) and not isinstance(lo_end, bool):
        # whole numbers: the quantile over [LOW, HIGH + 1) rounded down, as in range_value
        low, high, _, shape, mode = _range(declaration)
        x = math.floor(_quantile(low, high + 1, shape, mode + 0.5 if shape == "triangular" else mode, 0.5))
        return int(max(min(x, high), low))
    x, unit = at(declaration, 0.5)
    return f"{x:.17g}{unit}" if unit else x


def nominal_sets(scenario_path):
    """[(pointer, JSON text)] giving every declared unknown of the scenario its nominal value."""
    with open(scenario_path, encoding="utf-8") as f:
        document = json.load(f)
    return [(pointer, json.dumps(nominal(d))) for pointer, d in find(document)]
