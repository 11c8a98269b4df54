"""Hardware facts and design rules are cited from pages of this repository: no comment,
docstring or page points at documents outside it, every cited page and section exists,
and each section of the hardware-facts page names its primary sources."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: where citations live: the package, its tests, benchmarks, scripts, docs and README
FOLDERS = ("src", "tests", "benchmarks", "scripts", "docs")
TEXT = {".py", ".js", ".css", ".html", ".md", ".sh", ".toml", ".txt"}
#: citations of documents that are not in the repository (a reader cannot check them);
#: spelled in pieces so that this file does not match itself
OUTSIDE = re.compile("|".join([
    "SPEC" + r"(\.md)?\s*§", "hardware-facts" + r"(\.md)?\s*§", r"\.\./" + "shared",
    "shared/" + "reference", "DESIGN" + r"\.md",
]))
CITED_PAGE = re.compile(r"(?<![\w/.-])docs/([\w./-]+\.md)(?:#([\w-]+))?")
MD_LINK = re.compile(r"\]\(([^)\s#]+\.md)?(?:#([\w-]+))?\)")
PRIMARY = ("PTX ISA", "include/cute", "include/cutlass", "CUDA C++ Programming Guide",
           "Neuron", "media/docs/cpp/cute")


def _files():
    yield ROOT / "README.md"
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and path.suffix in TEXT and "__pycache__" not in path.parts:
                yield path


def slug(heading: str) -> str:
    """The anchor GitHub and MkDocs give a Markdown heading."""
    text = re.sub(r"[^\w\s-]", "", heading.strip().lower())
    return re.sub(r"\s+", "-", text)


def anchors(page: Path) -> set[str]:
    body = re.sub(r"^```.*?^```", "", page.read_text(), flags=re.S | re.M)
    return {slug(m[1]) for m in re.finditer(r"^#{1,6}\s+(.+?)\s*#*$", body, re.M)}


def test_nothing_cites_documents_outside_the_repository():
    found = [f"{p.relative_to(ROOT)}:{n}: {line.strip()[:100]}"
             for p in _files() for n, line in enumerate(p.read_text().splitlines(), 1)
             if OUTSIDE.search(line)]
    assert found == []


def _citations():
    for path in _files():
        for n, line in enumerate(path.read_text().splitlines(), 1):
            for m in CITED_PAGE.finditer(line):
                yield path, n, ROOT / "docs" / m[1], m[2]
            if path.suffix == ".md":
                for m in MD_LINK.finditer(line):
                    if m[1] and "://" not in m[1]:
                        yield path, n, (path.parent / m[1]).resolve(), m[2]
                    elif not m[1] and m[2]:
                        yield path, n, path, m[2]


def test_every_cited_page_and_section_exists():
    cites = list(_citations())
    assert len(cites) > 30
    bad = []
    for path, n, page, anchor in cites:
        where = f"{path.relative_to(ROOT)}:{n}"
        if not page.is_file():
            bad.append(f"{where}: no page {page.relative_to(ROOT)}")
        elif anchor and anchor not in anchors(page):
            bad.append(f"{where}: {page.relative_to(ROOT)} has no section #{anchor}")
    assert bad == []


def test_code_cites_the_hardware_facts_page():
    cited = {a for _, _, page, a in _citations() if page.name == "hardware-facts.md" and a}
    for section in ("mma-fragments", "ldmatrix", "wgmma", "tensor-memory",
                    "shared-memory-banks", "trainium"):
        assert section in cited, f"no code or page cites docs/hardware-facts.md#{section}"


@pytest.mark.parametrize("section", [s for s in re.split(
    r"^## ", (ROOT / "docs" / "hardware-facts.md").read_text(), flags=re.M)[1:]
    if not s.startswith(("Not established", "Swizzle modes"))], ids=lambda s: slug(s.splitlines()[0]))
def test_each_hardware_fact_section_names_its_primary_source(section):
    assert any(source in section for source in PRIMARY), section.splitlines()[0]


def test_the_checker_finds_an_outside_citation_and_a_missing_section(tmp_path):
    assert OUTSIDE.search("see " + "SPEC" + " §6") and OUTSIDE.search("hardware-facts" + " §4")
    assert not OUTSIDE.search("see docs/hardware-facts.md#wgmma")
    page = tmp_path / "p.md"
    page.write_text("# Title\n\n## Swizzle modes\n\n```\n## not a heading\n```\n")
    assert anchors(page) == {"title", "swizzle-modes"}
    assert slug("`tl.smem_access(x) -> AccessReport`") == "tlsmem_accessx---accessreport"
