"""Figures of the frozen predictions (scores.py's targets): each measurement with its scatter, the 90%
prediction band with its median, the tolerance band around the measurement, the baselines as thin lines;
axes from zero, or the panel's title says it is zoomed. Calibration inputs (the CPU-only rate of the CMS
panels) are marked as such.
"""
import math
import os
import statistics

import cms_miniaod
import predictions

BASELINES = {"a": ("(a) no contention (where not seen: above the axis)", ":"), "b": ("(b) offline ceiling (idem)", "--"),
             "c": ("(c) analytic closed form", "-.")}


def figure_legend(fig, axes, ncol):
    """One legend under the panels, each label once (the panels share their styles); returns how many it holds."""
    handles, labels = [], []
    for ax in axes:
        for h, label in zip(*ax.get_legend_handles_labels()):
            if label not in labels:
                handles.append(h)
                labels.append(label)
    fig.legend(handles, labels, fontsize=7, loc="lower center", ncol=ncol, frameon=False)
    return len(labels)


def _baselines(ax, rows, key):
    for k, (label, style) in BASELINES.items():
        xs = [r["x"] for r in rows if k in r["baselines"]]
        if xs:
            ax.plot(xs, [r["baselines"][k]["value"] for r in rows if k in r["baselines"]], style, color="grey",
                    lw=0.8, label=label)


def nvidia_figure(path, rows, cases):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(2, len(cases), figsize=(3.4 * len(cases), 6.6), squeeze=False)
    for i, case in enumerate(cases):
        for j, (metric, unit) in enumerate((("throughput", "inferences/s"), ("p50", "p50 latency (ms)"))):
            ax = axes[j][i]
            rs = [r for r in rows if r["case"] == case["id"] and r["metric"] == metric]
            x = [r["x"] for r in rs]
            m = [r["measured"] for r in rs]
            tol = rs[0]["tolerance"]
            ax.fill_between(x, [v * (1 - tol) for v in m], [v * (1 + tol) for v in m], color="tab:green", alpha=0.15,
                            lw=0, label=f"tolerance ±{100 * tol:.0f}%")
            ax.fill_between(x, [r["p5"] for r in rs], [r["p95"] for r in rs], color="tab:orange", alpha=0.35, lw=0,
                            label="90% prediction band")
            ax.plot(x, [r["median"] for r in rs], "-", color="tab:orange", lw=1.2, label="band median")
            ax.plot(x, m, "o", color="black", ms=2.5, label="measured (target)")
            _baselines(ax, rs, metric)
            ax.set_ylim(0, 1.15 * max(max(m), max(r["p95"] for r in rs)))
            ax.set_xlim(left=0)
            ax.tick_params(labelsize=7)
            if j == 0:
                ax.set_title(case["label"], fontsize=9)
            else:
                ax.set_xlabel("concurrency", fontsize=8)
            if i == 0:
                ax.set_ylabel(unit, fontsize=8)
                ax.legend(fontsize=6)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def cms_bands(documents):
    """The job counts of one model's frozen prediction ({N: document}) and, at each, (p5, median, p95) of its runs'
    per-job events/s."""
    ns = sorted(documents)
    bands = []
    for n in ns:
        rates = [r for r in predictions.per_job_rates(documents[n]) if r is not None]
        bands.append((cms_miniaod.quantile(rates, 0.05), cms_miniaod.quantile(rates, 0.5),
                      cms_miniaod.quantile(rates, 0.95)))
    return ns, bands


def cms_figure(path, rows, documents_by_model, labels, measured_scatter):
    """documents_by_model: {model: {N: prediction}}; measured_scatter: {model: [(N, p10, p90)]}."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    models = list(documents_by_model)
    cols = min(3, len(models))
    nrows = (len(models) + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(4.3 * cols, 3.5 * nrows), squeeze=False)
    for ax, model in zip(axes.flat, models):
        ns, bands = cms_bands(documents_by_model[model])
        rs = [r for r in rows if r["case"] == model and r["x"] is not None]
        tol = rs[0]["tolerance"]
        x = [r["x"] for r in rs]
        m = [r["measured"] for r in rs]
        ax.fill_between(x, [v * (1 - tol) for v in m], [v * (1 + tol) for v in m], color="tab:green", alpha=0.15, lw=0,
                        label=f"tolerance ±{100 * tol:.0f}%")
        ax.fill_between(ns, [b[0] for b in bands], [b[2] for b in bands], color="tab:blue", alpha=0.3, lw=0,
                        label="90% prediction band")
        ax.plot(ns, [b[1] for b in bands], "-", color="tab:blue", lw=1.2, label="band median")
        scatter = measured_scatter.get(model)
        if scatter:
            lo = [v - s[1] for v, s in zip(m, scatter)]
            hi = [s[2] - v for v, s in zip(m, scatter)]
            ax.errorbar(x, m, yerr=[lo, hi], fmt="o", color="black", ms=3, capsize=2, label="measured median (p10–p90)")
        else:
            ax.plot(x, m, "o", color="black", ms=3, label="measured")
        _baselines(ax, rs, None)
        level = rs[0]["baselines"]["a"]["value"]
        ax.axhline(level, color="tab:red", lw=0.8, ls="--", label="CPU only (calibration input; value in the title)")
        crossing = next((r for r in rows if r["case"] == model and r["metric"].startswith("crossing")), None)
        if crossing and crossing["measured"] is not None:
            ax.axvline(crossing["measured"], color="black", lw=0.6, ls=":", label="measured crossing")
        if crossing and crossing["p5"] is not None:
            ax.axvspan(crossing["p5"], crossing["p95"], color="tab:blue", alpha=0.08, label="crossing band (5-95% of runs)")
        values = m + [b[0] for b in bands] + [b[2] for b in bands]
        low = 0.9 * min(values)
        ax.set_ylim(low, 1.05 * max(values))
        ax.set_title(f"{labels[model]}\nCPU only {level} events/s per job; zoomed: y from {low:.2f}", fontsize=8)
        ax.set_xlabel("4-threaded jobs", fontsize=8)
        ax.set_ylabel("events/s per job", fontsize=8)
        ax.tick_params(labelsize=7)
    for ax in list(axes.flat)[len(models):]:
        ax.axis("off")
    # One legend under the panels: inside a panel it covered the bands (DeepMET's, AK4's).
    legend_rows = math.ceil(figure_legend(fig, list(axes.flat)[:len(models)], ncol=4) / 4)
    fig.tight_layout(rect=(0, 0.035 * legend_rows / nrows, 1, 1))
    fig.savefig(path, dpi=90)
    plt.close(fig)
