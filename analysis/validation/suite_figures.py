"""The validation suite's three figures (run_suite.py --plot, --nvidia-plot, --cms-plot), drawn so that the
scale of each error shows: every measurement with its tolerance band (and its scatter where the source has
one), the nominal prediction, the frozen 90% prediction band where scenarios/validation/predictions/ has one
(else the panel says "nominal only"), the baselines as thin lines (computed by scores.py), calibration inputs
marked as such, and every axis from zero or marked as zoomed in the panel.
"""
import math
import os
import statistics

import band_figures
import cms_miniaod
import scores

TOLERANCE = {"color": "tab:green", "alpha": 0.15, "lw": 0}
ZOOM_BOX = {"boxstyle": "round", "facecolor": "white", "edgecolor": "tab:red", "lw": 0.6}


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


# --- docs/validation.png: each case's error against its tolerance ------------------------------------------

ROLES = {"calibration input": ("s", "white", "tab:grey", "calibration input (the scenario was built from it: "
                                                        "a consistency check only)"),
         "derived": ("D", "tab:blue", "tab:blue", "derived (follows from the inputs by the simulated mechanics)"),
         "independent": ("o", "tab:green", "tab:green", "independent (no input taken from it)")}


BAND = {"color": "black", "lw": 2.2, "solid_capstyle": "butt"}
BASELINE = {"color": "tab:grey", "lw": 0.7}


def errors_figure(path, results):
    """Each case's relative error (simulated / published - 1) as a point, its tolerance as a band on its row,
    the frozen 90% band of its value over the declared unknowns as a bar through it (published_bands.py),
    its role as the marker; the axis is centred on 0 (the published value)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(9, 0.32 * len(results) + 2.4))
    percent = lambda r, value: 100 * (value / r["published"] - 1)  # a value's error against the published one
    reach = max([100 * abs(r["error"]) for r in results] + [100 * r["tolerance"] for r in results]
                + [abs(percent(r, r["band"][k])) for r in results if r.get("band") for k in (1, 2)]
                + [abs(percent(r, v)) for r in results for v in r.get("baselines", {}).values() if math.isfinite(v)])
    for y, r in enumerate(results):
        tol = 100 * r["tolerance"]
        ax.fill_between([-tol, tol], y - 0.38, y + 0.38, **TOLERANCE)
        if r.get("band"):
            ax.plot([percent(r, r["band"][1]), percent(r, r["band"][2])], [y, y], **BAND)
        at = {}  # baselines of one value share a tick: "(b)(c)"
        for name, value in sorted(r.get("baselines", {}).items()):
            if math.isfinite(value):
                at.setdefault(value, []).append(f"({name})")
        for value, names in at.items():
            x = percent(r, value)
            ax.plot([x, x], [y - 0.3, y + 0.3], **BASELINE)
            ax.annotate("".join(names), (x, y - 0.3), xytext=(1, 0), textcoords="offset points", fontsize=5,
                        color=BASELINE["color"], va="bottom")
        marker, face, edge, _ = ROLES[r["role"]]
        ax.plot(100 * r["error"], y, marker, ms=6, mfc=face, mec=edge, mew=1.4)
        if r["status"] != "ok":
            ax.annotate(r["status"], (100 * r["error"], y), xytext=(6, -3), textcoords="offset points", fontsize=6,
                        color="tab:red")
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(range(len(results)))
    ax.set_yticklabels([r["id"] + (" (calibration)" if r["role"] == "calibration input" else "") for r in results],
                       fontsize=7)
    for label, r in zip(ax.get_yticklabels(), results):
        label.set_color("tab:grey" if r["role"] == "calibration input" else "black")
    ax.set_ylim(len(results) - 0.5, -0.5)
    ax.set_xlim(-1.35 * reach, 1.35 * reach)
    ax.set_xlabel("simulated vs published (%): 0 is the published value; shaded: each case's tolerance", fontsize=8)
    ax.tick_params(axis="x", labelsize=7)
    handles = [plt.Rectangle((0, 0), 1, 1, **TOLERANCE), plt.Line2D([], [], **BAND)]
    handles.append(plt.Line2D([], [], **BASELINE))
    labels = ["tolerance (±, per case)", "90% band over the declared unknowns (5% to 95% of the design's runs)",
              "baselines from calibration inputs: (a) no contention (b) the offline ceiling (c) analytic (scores.py; "
              "(a) of a job cap never saturates: not drawn)"]
    for role, (marker, face, edge, text) in ROLES.items():
        if any(r["role"] == role for r in results):
            handles.append(plt.Line2D([], [], ls="", marker=marker, mfc=face, mec=edge, mew=1.4))
            labels.append(text)
    fig.legend(handles, labels, fontsize=7, loc="lower center", ncol=1, frameon=False)
    fig.tight_layout(rect=(0, 0.17, 1, 1))
    fig.savefig(path, dpi=110)
    plt.close(fig)


# --- docs/validation-nvidia.png: every level, nominal prediction and the frozen bands -----------------------

def nvidia_figure(path, spec, base, results):
    """results: nvidia_suite.compare's (case, rows). Top: throughput; bottom: p50 latency (p99 faint: reported,
    not judged)."""
    plt = _pyplot()
    tolerance = spec["tolerance"]
    fig, axes = plt.subplots(2, len(results), figsize=(3.5 * len(results), 7.0), squeeze=False)
    for i, (case, rows) in enumerate(results):
        c = [r["concurrency"] for r in rows]
        baselines = scores.nvidia_baselines(case, base)
        bands = scores.nvidia_bands(case)
        for j, (metric, unit) in enumerate((("throughput", "throughput (inferences/s)"), ("p50", "p50 latency (ms)"))):
            ax = axes[j][i]
            m = [r["measured"][metric] for r in rows]
            p = [r["predicted"][metric] for r in rows]
            tol = tolerance[metric]
            ax.fill_between(c, [v * (1 - tol) for v in m], [v * (1 + tol) for v in m], **TOLERANCE,
                            label=f"tolerance ±{100 * tol:.0f}% around the measurement")
            ax.plot(c, m, "o", color="black", ms=2.5, label="measured (target)")
            ax.plot(c, p, "-", color="tab:orange", lw=1.2, label="predicted (nominal values of the unknowns)")
            top = max(m + p)
            if bands:
                bc = sorted(bands)
                median = [bands[k][metric][0] for k in bc]
                low = [median[k] - bands[x][metric][1] for k, x in enumerate(bc)]
                high = [bands[x][metric][2] - median[k] for k, x in enumerate(bc)]
                ax.errorbar(bc, median, yerr=[low, high], fmt="_", color="tab:orange", ms=8, capsize=3, lw=1.4,
                            label="frozen 90% band (5%–95% of runs); other levels: nominal only")
                top = max([top] + [bands[x][metric][2] for x in bc])
            else:
                ax.text(0.5, 0.04, "no frozen band: nominal only", transform=ax.transAxes, ha="center", fontsize=7)
            for k, style in (("a", ":"), ("b", "--")):
                ax.plot(c, [baselines(x)[metric][k] for x in c], style, color="grey", lw=0.8,
                        label=f"({k}) {'no contention' if k == 'a' else 'offline ceiling'}, from the offline table "
                              "(calibration input); above the axis where not seen")
            if metric == "p50":
                ax.plot(c, [r["measured"]["p99"] for r in rows], ".", color="tab:red", ms=2, alpha=0.5,
                        label="p99 measured / predicted (reported, not judged)")
                ax.plot(c, [r["predicted"]["p99"] for r in rows], "-", color="tab:red", lw=0.6, alpha=0.5)
                top = max([top] + [r["measured"]["p99"] for r in rows] + [r["predicted"]["p99"] for r in rows])
            ax.set_ylim(0, 1.12 * top)
            ax.set_xlim(0, 1.04 * max(c))
            ax.tick_params(labelsize=7)
            if j == 0:
                ax.set_title(case["label"], fontsize=9)
            else:
                ax.set_xlabel("concurrency (requests in flight)", fontsize=8)
            if i == 0:
                ax.set_ylabel(unit, fontsize=8)
    band_figures.figure_legend(fig, [axes[0][0], axes[1][0]], ncol=3)
    fig.tight_layout(rect=(0, 0.1, 1, 1))
    fig.savefig(path, dpi=100)
    plt.close(fig)


# --- docs/validation-cms.png: per-job events/s against jobs, with the crossings -----------------------------

def _cms_panel(ax, p, documents, sensitivity, tolerance):
    if "files" in p:  # a model: one log per N, each with its jobs' scatter
        ns = [f["n"] for f in p["files"]]
        med = [statistics.median(f["measured"]) for f in p["files"]]
        lo = [v - cms_miniaod.quantile(f["measured"], 0.1) for v, f in zip(med, p["files"])]
        hi = [cms_miniaod.quantile(f["measured"], 0.9) - v for v, f in zip(med, p["files"])]
        drawn = [(f["n"], v) for f, v in zip(p["files"], med) if f["drawn"]]
    else:  # a cross-site scan: one value per N, no scatter published
        ns, med = (list(v) for v in zip(*p["points"]))
        lo = hi = None
        drawn = list(p["points"])
    ax.fill_between(ns, [v * (1 - tolerance) for v in med], [v * (1 + tolerance) for v in med], **TOLERANCE,
                    label=f"tolerance ±{100 * tolerance:.0f}% around the measured median")
    if lo is not None:
        ax.errorbar(ns, med, yerr=[lo, hi], fmt="o", color="black", ms=3.5, capsize=2.5, lw=0.9,
                    label="measured median, bar: p10–p90 of the jobs")
    else:
        ax.plot(ns, med, "o", color="black", ms=3.5, label="measured (one value per N: no scatter published)")
    values = [v * (1 - tolerance) for v in med] + [v * (1 + tolerance) for v in med]
    values += [v - d for v, d in zip(med, lo)] + [v + d for v, d in zip(med, hi)] if lo else []
    if documents:
        bn, bands = band_figures.cms_bands(documents)
        ax.fill_between(bn, [b[0] for b in bands], [b[2] for b in bands], color="tab:blue", alpha=0.2, lw=0,
                        label="frozen 90% band (5%–95% of runs)")
        values += [b[0] for b in bands] + [b[2] for b in bands]
    else:
        ax.text(0.98, 0.97, "no frozen band: nominal only", transform=ax.transAxes, ha="right", va="top",
                fontsize=6.5)
    curve = p.get("curve") or [(f["n"], statistics.median(f["simulated"])) for f in p["files"]]  # --cms subset
    ax.plot([x for x, _ in curve], [y for _, y in curve], "-s", color="tab:blue", ms=2.5, lw=1.1,
            label="predicted median (nominal), at every simulated N")
    values += [y for _, y in curve]
    for s in sensitivity:
        ax.plot([x for x, _ in s["curve"]], [y for _, y in s["curve"]], ":", color="tab:grey", lw=1,
                label="sensitivity: τ per padded element (not a prediction)")
    level = p["level"]
    ax.axhline(level, color="tab:red", ls="--", lw=0.7, label=f"(a) CPU only, {level} events/s (calibration input)")
    measured = cms_miniaod.bracket(drawn, level)
    if measured:
        x = cms_miniaod.crossing(drawn, level)
        ax.axvline(x, color="black", ls=":", lw=0.9,
                   label=f"measured crossing {x:.1f} (linear between measured N {measured[0]} and {measured[1]})")
    predicted = cms_miniaod.bracket(curve, level)
    if predicted:
        x = cms_miniaod.crossing(curve, level)
        ax.axvspan(predicted[0], predicted[1], color="tab:blue", alpha=0.35, lw=0)
        ax.axvline(x, color="tab:blue", ls=":", lw=0.9,
                   label=f"predicted crossing {x:.1f} (bisected on runs to {predicted[0]}–{predicted[1]} jobs)")
    low = min(0.8 * level, 0.97 * min(values))
    ax.set_ylim(low, max(1.08 * level, 1.03 * max(values)))
    ax.text(0.02, 0.03, f"zoomed: y from {low:.2f} events/s, not 0", transform=ax.transAxes, fontsize=6.5,
            color="tab:red", bbox=ZOOM_BOX)
    ax.set_title(p["label"], fontsize=9)
    ax.set_xlabel("4-threaded jobs on one T4", fontsize=8)
    ax.set_ylabel("events/s per job", fontsize=8)
    ax.tick_params(labelsize=7)
    # Under the panel, not in it: inside, it covered the bands (its labels carry the panel's own crossings).
    # Left out of tight_layout, which would narrow the panel to the legend's width; cms_figure leaves it room.
    ax.legend(fontsize=5, loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=2, frameon=False).set_in_layout(False)


def cms_figure(path, details, tolerance):
    """details: cms_miniaod.run's; tolerance: the per-N median's (cases.json cms_miniaod tolerances)."""
    plt = _pyplot()
    panels = details["models"] + details["cross"]
    cols = 3
    rows = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(5.2 * cols, 5.6 * rows), squeeze=False)
    for ax, p in zip(axes.flat, panels):
        sensitivity = [s for s in details.get("sensitivity", []) if s["model"] == p["id"]]
        _cms_panel(ax, p, scores.cms_documents(p["id"]), sensitivity, tolerance)
    for ax in list(axes.flat)[len(panels):]:
        ax.axis("off")
    fig.tight_layout()
    fig.subplots_adjust(hspace=0.5, bottom=0.12, right=0.95)  # room for each panel's legend under it
    fig.savefig(path, dpi=100)
    plt.close(fig)
