#!/usr/bin/env python3
"""Turns a JMH CSV result file (-rf csv) into a markdown table with the error column and ratios.

Usage: jmh-table.py RESULTS.csv [--ref METHOD] [--pair A:B]

- every primary result becomes a row: benchmark method, its parameters, threads, score with its
  99.9% error, unit, and with -prof gc the allocation per operation (gc.alloc.rate.norm, B/op);
- --ref METHOD adds "x METHOD": the row's score over METHOD's score with the same parameters and the
  same variant (a method named ...2Threads is compared with METHOD2Threads, ...ManyKeys with
  METHODManyKeys, ...Prebuilt with METHODPrebuilt; JMH's Threads column must match too);
- --pair A:B is for @Group benchmarks that run two contenders at once: each group gets one row per
  parameter set with A's and B's scores (the secondary results whose method names contain A and B)
  and the ratio A/B; with SampleTime results also their p50 and p99.
The ratios come from the file's own rows: one run, one machine state.
"""

import csv
import re
import sys
from collections import OrderedDict

VARIANT = re.compile(r"(\d+Threads|ManyKeys|Prebuilt)$")


def load(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        full = r["Benchmark"]
        head, colon, secondary = full.partition(":")
        r["name"] = head.rsplit(".", 1)[-1] + colon + secondary
        r["params"] = tuple((k[len("Param: "):], v) for k, v in r.items() if k.startswith("Param: ") and v)
    return rows


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return float("nan")


def fmt(x):
    if x != x:  # NaN
        return ""
    if abs(x) >= 100:
        return f"{x:,.0f}"
    if abs(x) >= 10:
        return f"{x:,.1f}"
    return f"{x:,.2f}"


def params_text(params):
    return ", ".join(f"{k}={v}" for k, v in params) or "-"


def split_variant(name):
    m = VARIANT.search(name)
    return (name[: m.start()], m.group(1)) if m else (name, "")


def plain_table(rows, ref):
    primary = [r for r in rows if ":" not in r["name"]]
    alloc = {(r["name"].split(":")[0], r["params"], r["Threads"]): number(r["Score"])
             for r in rows if r["name"].endswith(":gc.alloc.rate.norm")}
    refs = {}
    if ref:
        for r in primary:
            base, variant = split_variant(r["name"])
            if base == ref:
                refs[(variant, r["params"], r["Threads"])] = number(r["Score"])
    head = ["benchmark", "params", "threads", "score", "error (99.9%)", "unit"]
    if ref:
        head.append(f"x {ref}")
    if alloc:
        head.append("B/op")
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * 3 + "---:|" * (len(head) - 3)]
    for r in primary:
        score = number(r["Score"])
        cells = [f"`{r['name']}`", params_text(r["params"]), r["Threads"], fmt(score),
                 "± " + fmt(number(r["Score Error (99.9%)"])), r["Unit"]]
        if ref:
            base, variant = split_variant(r["name"])
            base_score = refs.get((variant, r["params"], r["Threads"]))
            cells.append(f"{score / base_score:.2f}x" if base_score else "")
        if alloc:
            a = alloc.get((r["name"], r["params"], r["Threads"]))
            cells.append(fmt(a) if a is not None else "")
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


def pair_table(rows, a, b):
    groups = OrderedDict()
    for r in rows:
        if ":" not in r["name"]:
            continue
        group, rest = r["name"].split(":", 1)
        m = re.match(r"(\w+?)(?:[:\u00b7](p\d\.\d+|p0\.50|p0\.99))?$", rest)
        if not m:
            continue
        method, pct = m.group(1), m.group(2)
        side = "a" if a.lower() in method.lower() else "b" if b.lower() in method.lower() else None
        if side is None:
            continue
        key = (group, r["params"], r["Threads"], r["Mode"])
        g = groups.setdefault(key, {})
        g[(side, pct)] = (number(r["Score"]), number(r["Score Error (99.9%)"]), r["Unit"])
    head = ["op", "params", "threads (both)", "mode", a, b, f"{a} / {b}"]
    out = ["| " + " | ".join(head) + " |", "|---|---|---:|---|---:|---:|---:|"]
    for (group, params, threads, mode), g in groups.items():
        if ("a", None) not in g or ("b", None) not in g:
            continue
        sa, ea, unit = g[("a", None)]
        sb, eb, _ = g[("b", None)]
        if mode == "sample":
            def pcts(side):
                p50 = g.get((side, "p0.50"), (float("nan"),))[0]
                p99 = g.get((side, "p0.99"), (float("nan"),))[0]
                return f"{fmt(sa if side == 'a' else sb)} {unit} (p50 {fmt(p50)}, p99 {fmt(p99)})"
            cells = [group, params_text(params), threads, mode, pcts("a"), pcts("b"), f"{sa / sb:.2f}"]
        else:
            cells = [group, params_text(params), threads, mode, f"{fmt(sa)} ± {fmt(ea)} {unit}",
                     f"{fmt(sb)} ± {fmt(eb)} {unit}", f"{sa / sb:.2f}"]
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    rows = load(argv[1])
    ref = pair = None
    args = argv[2:]
    while args:
        flag = args.pop(0)
        if flag == "--ref" and args:
            ref = args.pop(0)
        elif flag == "--pair" and args and ":" in args[0]:
            pair = args.pop(0).split(":", 1)
        else:
            print(f"jmh-table: unknown argument {flag}", file=sys.stderr)
            return 2
    print(pair_table(rows, *pair) if pair else plain_table(rows, ref))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
