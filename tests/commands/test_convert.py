"""``tilelayout convert`` as a user runs it: each target's text equals the library's,
``--json`` for machines, and a refusal is the converter's reason on one line (exit 2)."""


from __future__ import annotations

import json
import subprocess
import sys

import pytest

import tilelayout as tl
from tilelayout import presets
from tilelayout.interop.cute import to_cute, to_cute_tv
from tilelayout.interop.jax import partition_spec_entries
from tilelayout.interop.triton import to_triton_bases
from tilelayout.interop.triton_shared import from_triton_shared_bases, to_triton_shared_bases


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tilelayout.cli", "convert", *args],
                          capture_output=True, text=True, timeout=60)


def ok(*args: str) -> list[str]:
    p = run(*args)
    assert p.returncode == 0, p.stderr
    assert p.stderr == ""
    return p.stdout.splitlines()


def refused(*args: str) -> str:
    p = run(*args)
    assert p.returncode == 2, (p.stdout, p.stderr)
    assert p.stdout == ""
    lines = p.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("tilelayout: error: "), p.stderr
    return lines[0]


def test_cute_tv_of_the_mma_a_preset_is_cutlass_text():
    a = presets.get("mma.m16n8k16.A", dtype="float16")
    out = ok("--preset", "mma.m16n8k16.A", "--param", "dtype=float16", "--to", "cute-tv")
    assert out[0] == to_cute_tv(a.layout, a.shape) == "((4,8),(2,2,2)):((32,1),(16,8,128))"
    assert out[1].startswith("# (thread, value) -> column-major index") and "thread = laneid" in out[1]


def test_cute_tv_b_operand_permute_and_wgmma_thread_axes():
    out = ok("--preset", "mma.m16n8k16.B", "--param", "dtype=float16", "--to", "cute-tv",
             "--permute", "1,0")
    assert out[0] == "((4,8),(2,2)):((16,1),(8,64))"
    out = ok("--preset", "wgmma.m64nNk16.D", "--param", "n=16", "--to", "cute-tv")
    assert out[0] == "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))"
    assert "thread = wid_in_wg * 32 + laneid" in out[1]


def test_cute_of_a_swizzled_smem_tile():
    p = presets.get("smem.tile")
    out = ok("--preset", "smem.tile", "--to", "cute")
    assert out[0] == to_cute(p.layout, p.shape) == "Swizzle<3,3,3> o (8,64):(64,1)"


def test_jax_assumes_the_layouts_mesh_and_says_so():
    p = presets.get("mesh.shard")
    out = ok("--preset", "mesh.shard", "--to", "jax")
    entries = partition_spec_entries(p.layout, {"dp": 2, "tp": 2}, p.shape)
    assert out[0] == f"P{entries!r}" == "P('dp', None)"  # as JAX prints a PartitionSpec
    assert out[1].startswith("# P = jax.sharding.PartitionSpec; mesh dp=2,tp=2 (assumed")
    # a given mesh declares its axes, so the layout text may use them
    out = ok("S[(2,2,2,4):(1@rows,4,1@cols,1)]", "--shape", "4,8", "--to", "jax",
             "--mesh", "rows=2,cols=2")
    assert out[0] == "P('rows', 'cols')" and "(given)" in out[1]


def test_triton_bases_equal_the_library():
    c = presets.get("mma.m16n8k16.C")
    out = ok("--preset", "mma.m16n8k16.C", "--to", "triton")
    bases = to_triton_bases(c.layout, c.shape)
    assert out[:2] == [f"{k}: {json.dumps(v, separators=(',', ':'))}" for k, v in bases.items()]
    assert out[2].startswith("# LinearLayout bases; out dims dim0=16, dim1=8")


def test_cute_text_and_json_of_a_lower_into_higher_xor_swizzle():
    text = "ComposeLayout(XorSwizzle(9,18,4,8,16), S[(8,4):(4,1)])"  # CuTe Swizzle<2,0,-3>
    doc = json.loads(run(text, "--to", "cute", "--json").stdout)
    assert doc["text"] == "Swizzle<2,0,-3> o (8,4):(4,1)"
    assert doc["value"]["swizzle"] == [2, 0, -3]


def test_triton_shared_offset_bases_of_a_swizzled_tile():
    out = ok("--preset", "smem.tile", "--to", "triton")
    c = presets.get("smem.tile")
    offset = to_triton_shared_bases(c.layout, c.shape)
    assert out[0] == f"offset: {json.dumps(offset, separators=(',', ':'))}"
    assert out[1].startswith("# gluon SharedLinearLayout offset_bases")
    assert from_triton_shared_bases(offset, c.shape).equivalent(c.layout, c.shape)


def test_tvm_object_text():
    pytest.importorskip("tvm_tirx", reason="the tvm extra (apache-tvm-tirx) provides tvm_tirx")
    text = "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid"
    out = ok(text, "--shape", "8,16", "--to", "tvm")
    from tilelayout.interop.tvm import to_tvm

    assert out[0] == str(to_tvm(tl.parse(text)))
    assert out[0].startswith("T.TileLayout.from_iters(")


def test_json_for_machines():
    p = run("--preset", "mma.m16n8k16.C", "--to", "cute-tv", "--json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc["target"] == "cute-tv" and doc["shape"] == [16, 8]
    assert doc["layout"] == str(presets.get("mma.m16n8k16.C").layout)
    assert doc["text"] == "((4,8),(2,2)):((32,1),(16,8))"
    assert doc["value"] == {"shape": [[4, 8], [2, 2]], "stride": [[32, 1], [16, 8]],
                            "thread_axes": ["laneid"]}
    doc = json.loads(run("--preset", "mesh.shard", "--to", "jax", "--json").stdout)
    assert doc["value"] == {"spec": ["dp", None], "mesh": {"dp": 2, "tp": 2}}


@pytest.mark.parametrize(("args", "reason"), [
    (("--preset", "smem.tile", "--to", "cute-tv"), "swizzles a memory address"),
    (("ComposeLayout(Swizzle(3,3,3), S[(8,64):(64,1)] + R[2:512])", "--to", "triton"),
     "stores each element 2 times"),
    (("--preset", "smem.tile", "--to", "jax"), "swizzles addresses inside a device"),
    (("--preset", "mma.m16n8k16.C", "--to", "cute"), "one integer codomain"),
    (("--preset", "mma.m16n8k16.C", "--to", "jax"), "uses no device (mesh) axis"),
    (("--preset", "mesh.shard", "--to", "jax", "--mesh", "dp=2,tp=4"), "does not copy the array"),
    (("S[(8,64):(64,1)]", "--to", "cute-tv"), "uses no thread axis"),
    (("S[(3,4):(4@laneid,1@laneid)]", "--to", "triton"), "not a power of two"),
    (("S[(2,112):(112@TCol,1@TCol)]", "--to", "triton"), "112, not a power of two"),
    (("S[(2,8):(8@P,1@F)]", "--to", "triton"), "no Triton input dimension"),
    (("S[4:1@laneid]", "--to", "cute-tv", "--thread-axis", "lanied"), "did you mean 'laneid'"),
    (("S[4:1@pid]", "--to", "jax", "--mesh", "pid"), "NAME=SIZE"),
])
def test_refusals_are_the_converters_reason_on_one_line(args, reason):
    assert reason in refused(*args)


def test_refusal_with_json_is_still_the_one_line_error():
    line = refused("--preset", "smem.tile", "--to", "cute-tv", "--json")
    assert "swizzles a memory address" in line


def test_to_is_required_and_checked():
    p = run("S[4:1]")
    assert p.returncode == 2 and "--to" in p.stderr
    p = run("S[4:1]", "--to", "numpy")
    assert p.returncode == 2 and "invalid choice" in p.stderr
