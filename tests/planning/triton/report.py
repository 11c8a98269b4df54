"""The differential harness's results as text: counts of equal / better / worse per
metric, the refusals, the times, the losses grouped by mechanism (:data:`GROUPS`) with
the worst cases of each and their layouts (the table ``benchmarks/bench_vs_triton.py`` writes into
docs/data-movement.md between :data:`BEGIN` and :data:`END`)."""

from __future__ import annotations

import statistics
from collections import Counter
from typing import Any

from .harness import METRICS, paste

BEGIN = "<!-- triton pairs table -->"
END = "<!-- /triton pairs table -->"
NAMES = {"smem_bytes": "shared-memory bytes", "wavefronts": "wavefronts",
         "instructions": "instructions per warp", "overall": "overall"}


def compared(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in records if "verdict" in r]


def severity(r: dict[str, Any]) -> float:
    """How much worse ours is: the largest relative excess over Triton's metric."""
    o, t = r["ours"], r["triton"]
    return max(((o[m] - t[m]) / max(t[m], 1) for m in METRICS if o[m] > t[m]), default=0.0)


def _matrix(detail: str) -> int:
    return _count(detail, "ldmatrix", "stmatrix")


def _accesses(detail: str) -> int:
    return _count(detail, "st.shared", "ld.shared", "ldmatrix", "stmatrix")


#: the loss mechanisms, each a test of (ours, Triton's, verdict); a loss is in the first
#: group whose test holds
GROUPS: tuple[tuple[str, Any], ...] = (
    ("bigger buffer: Triton reuses a smaller one in passes",
     lambda o, t, v: v["smem_bytes"] == "worse" and t["smem_bytes"] > 0),
    ("stages through shared memory where Triton shuffles",
     lambda o, t, v: v["smem_bytes"] == "worse"),
    ("shuffles costed above Triton's shuffles",
     lambda o, t, v: o["smem_bytes"] == t["smem_bytes"] == 0),
    ("shuffles where Triton stages: more instructions",
     lambda o, t, v: o["smem_bytes"] == 0),
    ("smaller buffer than Triton's in more passes: more instructions",
     lambda o, t, v: o["smem_bytes"] < t["smem_bytes"] and v["instructions"] == "worse"),
    ("fewer ldmatrix / stmatrix than Triton",
     lambda o, t, v: _matrix(o["detail"]) < _matrix(t["detail"])),
    ("more shared-memory instructions (narrower vectors)",
     lambda o, t, v: _accesses(o["detail"]) > _accesses(t["detail"])),
    ("more wavefronts (bank conflicts)", lambda o, t, v: v["wavefronts"] == "worse"),
    ("other", lambda o, t, v: True),
)


def group(r: dict[str, Any]) -> str:
    """The loss mechanism a worse record shows (the first of :data:`GROUPS` that fits)."""
    return next(name for name, test in GROUPS if test(r["ours"], r["triton"], r["verdict"]))


def _count(detail: str, *names: str) -> int:
    """Instructions in a detail text ``"4 st.shared.v4.b32, 1 barrier(s)"`` whose name
    holds one of ``names``."""
    n = 0
    for part in detail.split(", "):
        head, _, name = part.partition(" ")
        if head.isdigit() and any(x in name for x in names):
            n += int(head)
    return n


def _ms(xs: list[float]) -> str:
    if not xs:
        return "-"
    return f"median {statistics.median(xs) * 1e3:.0f} ms, max {max(xs) * 1e3:.0f} ms"


def table(records: list[dict[str, Any]], seed: int, examples: int = 2) -> str:
    """The markdown the docs page shows (see the module doc)."""
    done = compared(records)
    version = next((r.get("triton_version") for r in records if r.get("triton_version")), "?")
    status = Counter(r["status"] for r in records)
    lines = [f"{len(done)} pairs compared (seed {seed}, Triton {version}); "
             f"{len(records) - len(done)} drawn pairs not compared: "
             + (", ".join(f"{n} {k}" for k, n in sorted(status.items()) if k != "ok") or "none")
             + ".", "",
             "| metric | equal | better | worse |", "|---|---|---|---|"]
    for m in (*METRICS, "overall"):
        c = Counter(r["verdict"][m] for r in done)
        lines.append(f"| {NAMES[m]} | {c['equal']} | {c['better']} | {c['worse']} |")
    gains = []
    for m in METRICS:
        ratios = [r["ours"][m] / r["triton"][m] for r in done
                  if r["verdict"][m] == "better" and r["triton"][m]]
        zero = sum(1 for x in ratios if x == 0)
        if ratios:
            gains.append(f"{NAMES[m]} on {len(ratios)} (median {statistics.median(ratios):.2f}x "
                         f"Triton's; none at all on {zero})")
    lines += ["", "Where ours is strictly better: " + "; ".join(gains) + "."]
    still = [r for r in done if r["ours"]["mechanism"] in ("none", "registers")
             and (r["triton"]["smem_bytes"] or r["triton"]["instructions"])]
    if still:
        lines.append(f"On {len(still)} pairs ours keeps every element in its thread (none / "
                     f"registers) where Triton's code moves data between threads: the source "
                     f"already holds, replicated, what each thread of the destination needs.")
    wrong = [r for r in done if not r.get("execute_ok")]
    disagree = [r for r in done if not r.get("agree")]
    lines += ["", f"`execute()` delivers Triton's own layout of `dst` (replicas included) on "
              f"{len(done) - len(wrong)} of {len(done)}; our reading of the two layouts "
              f"(`from_triton`) maps every register, lane and warp as Triton's bases do on "
              f"{len(done) - len(disagree)} of {len(done)}.",
              f"Planning time (CPU, `plan_conversion`): {_ms([r['plan_s'] for r in done])}. "
              f"Triton's compile per pair: "
              f"{_ms([r['compile_s'] for r in records if 'compile_s' in r])} (each timed when it "
              f"was compiled; cached since).", ""]
    by_family = Counter()
    worse_family = Counter()
    for r in done:
        by_family[r["pair"]["family"]] += 1
        worse_family[r["pair"]["family"]] += r["verdict"]["overall"] == "worse"
    lines += ["| family (src -> dst) | pairs | worse |", "|---|---|---|"]
    for fam, n in sorted(by_family.items(), key=lambda kv: (-worse_family[kv[0]], kv[0])):
        lines.append(f"| {fam} | {n} | {worse_family[fam]} |")
    losses = [r for r in done if r["verdict"]["overall"] == "worse"]
    groups: dict[str, list[dict[str, Any]]] = {}
    for r in sorted(losses, key=lambda r: (-severity(r), r["pair"]["index"])):
        groups.setdefault(group(r), []).append(r)
    lines += ["", "Losses by mechanism (each loss in the first group that fits, "
              "`report.GROUPS`):", "", "| mechanism | pairs | worse in |", "|---|---|---|"]
    for g, rs in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        worse_in = Counter(m for r in rs for m in METRICS if r["verdict"][m] == "worse")
        lines.append(f"| {g} | {len(rs)} | "
                     + ", ".join(f"{NAMES[m]} {n}" for m, n in worse_in.most_common()) + " |")
    lines += ["", f"The worst of each mechanism (largest relative excess over Triton; up to "
              f"{examples}); costs are shared-memory bytes / wavefronts / instructions per "
              f"warp:"]
    for g, rs in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        lines += ["", f"**{g}**", ""]
        for r in rs[:examples]:
            o, t = r["ours"], r["triton"]
            lines += [f"* pair {r['pair']['index']}: {r['text']}",
                      f"  - Triton: {t['smem_bytes']} / {t['wavefronts']} / "
                      f"{t['instructions']} ({t['detail']})",
                      f"  - ours: {o['smem_bytes']} / {o['wavefronts']} / {o['instructions']} "
                      f"({o['detail']})",
                      f"  - `{paste(r)}`"]
    return "\n".join(lines)


def replace_between(page: str, text: str) -> str:
    """``page`` with the text between the markers replaced (refused if they are absent).

    >>> replace_between(f"a\\n{BEGIN}\\nold\\n{END}\\nb", "new") == f"a\\n{BEGIN}\\nnew\\n{END}\\nb"
    True
    """
    if page.count(BEGIN) != 1 or page.count(END) != 1 or page.index(BEGIN) > page.index(END):
        raise ValueError(f"the page needs one {BEGIN} and, after it, one {END}")
    head, rest = page.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{BEGIN}\n{text}\n{END}{tail}"
