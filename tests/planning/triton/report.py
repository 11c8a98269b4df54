"""The differential harness's results as text: counts of equal / better / worse per
metric, the refusals, the times, the losses grouped by the pattern they show, and the
worst cases with their layouts (the table ``benchmarks/bench_vs_triton.py`` writes into
docs/data-movement.md between :data:`BEGIN` and :data:`END`)."""

from __future__ import annotations

import statistics
from collections import Counter
from typing import Any

from .harness import METRICS, paste

BEGIN = "<!-- triton pairs table -->\n"
END = "\n<!-- /triton pairs table -->"
NAMES = {"smem_bytes": "shared-memory bytes", "wavefronts": "wavefronts",
         "instructions": "instructions per warp", "overall": "overall"}


def compared(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in records if "verdict" in r]


def severity(r: dict[str, Any]) -> float:
    """How much worse ours is: the largest relative excess over Triton's metric."""
    o, t = r["ours"], r["triton"]
    return max(((o[m] - t[m]) / max(t[m], 1) for m in METRICS if o[m] > t[m]), default=0.0)


def uses(detail: str, *names: str) -> bool:
    return any(n in detail for n in names)


def patterns(r: dict[str, Any]) -> list[str]:
    """The loss mechanisms a worse record shows, from both sides' numbers and
    instructions (a record may show several)."""
    o, t = r["ours"], r["triton"]
    od, td = o["detail"], t["detail"]
    out = []
    if t["smem_bytes"] == 0 and o["smem_bytes"] > 0:
        out.append("stages through shared memory where Triton shuffles")
    elif t["smem_bytes"] == 0 and o["smem_bytes"] == 0 and o["instructions"] > t["instructions"]:
        out.append("shuffles costlier than Triton's")
    elif t["smem_bytes"] > 0 and o["smem_bytes"] == 0 and o["instructions"] > t["instructions"]:
        out.append("shuffles where Triton stages: more instructions")
    if o["smem_bytes"] > t["smem_bytes"] > 0:
        passes = _count(td, "bar.") > 1  # Triton reuses its buffer: a barrier per pass
        out.append("bigger buffer (Triton: smaller buffer in passes)" if passes else
                   "bigger buffer")
    if t["smem_bytes"] > 0 and o["smem_bytes"] > 0:
        if uses(td, "ldmatrix", "stmatrix") and not uses(od, "ldmatrix", "stmatrix"):
            out.append("no ldmatrix/stmatrix where Triton uses them")
        if _count(od, "st.shared", "ld.shared", "matrix") > _count(td, "st.shared", "ld.shared",
                                                                     "matrix"):
            out.append("more shared-memory instructions (narrower vectors)")
        if o["wavefronts"] > t["wavefronts"]:
            out.append("more wavefronts (bank conflicts or more requests)")
        if _count(od, "barrier") > _count(td, "bar."):
            out.append("more barriers (more passes through a smaller buffer)"
                       if o["smem_bytes"] < t["smem_bytes"] else "more barriers")
    if not out:
        out.append("other: " + ", ".join(m for m in METRICS if o[m] > t[m]))
    return out


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


def table(records: list[dict[str, Any]], seed: int, worst: int = 12) -> str:
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
    wrong = [r for r in done if not r.get("execute_ok")]
    disagree = [r for r in done if not r.get("agree")]
    lines += ["", f"`execute()` delivers Triton's own layout of `dst` (replicas included) on "
              f"{len(done) - len(wrong)} of {len(done)}; our reading of the two layouts "
              f"(`from_triton`) maps every register, lane and warp as Triton's bases do on "
              f"{len(done) - len(disagree)} of {len(done)}.",
              f"Planning time (CPU, `plan_conversion`): {_ms([r['plan_s'] for r in done])}. "
              f"Triton's compile per pair: "
              f"{_ms([r['compile_s'] for r in records if 'compile_s' in r and not r.get('cached')])}"
              f" (uncached pairs of this run).", ""]
    by_family = Counter()
    worse_family = Counter()
    for r in done:
        by_family[r["pair"]["family"]] += 1
        worse_family[r["pair"]["family"]] += r["verdict"]["overall"] == "worse"
    lines += ["| family (src -> dst) | pairs | worse |", "|---|---|---|"]
    for fam, n in sorted(by_family.items(), key=lambda kv: (-worse_family[kv[0]], kv[0])):
        lines.append(f"| {fam} | {n} | {worse_family[fam]} |")
    losses = [r for r in done if r["verdict"]["overall"] == "worse"]
    groups = Counter(p for r in losses for p in patterns(r))
    lines += ["", "Losses by the pattern they show (a loss may show several):", "",
              "| pattern | pairs |", "|---|---|"]
    lines += [f"| {p} | {n} |" for p, n in groups.most_common()]
    lines += ["", f"The {min(worst, len(losses))} worst (largest relative excess over Triton); "
              f"costs are shared-memory bytes / wavefronts / instructions per warp:", ""]
    for r in sorted(losses, key=lambda r: (-severity(r), r["pair"]["index"]))[:worst]:
        o, t = r["ours"], r["triton"]
        lines += [f"* pair {r['pair']['index']}: {r['text']}",
                  f"  - Triton: {t['smem_bytes']} / {t['wavefronts']} / {t['instructions']} "
                  f"({t['detail']})",
                  f"  - ours: {o['smem_bytes']} / {o['wavefronts']} / {o['instructions']} "
                  f"({o['detail']})",
                  f"  - `{paste(r)}`"]
    return "\n".join(lines)


def replace_between(page: str, text: str) -> str:
    """``page`` with the text between the markers replaced (refused if they are absent)."""
    if BEGIN not in page or END not in page:
        raise ValueError(f"the page has no {BEGIN.strip()} ... {END.strip()} markers")
    head, rest = page.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return head + BEGIN + text + END + tail
