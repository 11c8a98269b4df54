"""`tilelayout check`: legality findings, exit status and JSON."""


import json

import pytest

from tests.helpers import TC, run


@pytest.mark.parametrize("args,status,words", [
    (["S[64:1@laneid]"], 1, "laneid 63 does not exist"),
    (["S[(2,32):(1@wgid,1@laneid)]"], 1, "nothing names the step between"),
    (["S[(4,2):(1,0)]"], 1, "not injective"),
    ([TC], 0, "[unused] 128 of the 384 coordinates"),  # reported, but not an error
    (["S[(8,64):(64,1)]", "--dtype", "float16"], 1, "column reads (16 B per lane, 2 warp requests): "
     "64 wavefronts, ideal 8: 8.0x the ideal"),
    (["S[(8,64):(64,1)]", "--dtype", "float16", "--swizzle", "128B"], 0,
     "column reads (16 B per lane, 2 warp requests): 8 wavefronts, ideal 8: conflict-free"),
    (["--preset", "mma.m16n8k16.C"], 0, "legal"),
])
def test_check_command(args, status, words):
    p = run("check", *args)
    assert p.returncode == status, p.stdout + p.stderr
    assert words in p.stdout


def test_check_json():
    p = run("check", "S[(8,64):(64,1)]", "--dtype", "float16", "--swizzle", "64B", "--json")
    doc = json.loads(p.stdout)
    assert doc["ok"] is True and doc["findings"] == []
    assert doc["conflicts"]["column"]["wavefronts"] > doc["conflicts"]["column"]["ideal"]
    assert p.returncode == 1


def test_check_counts_tensor_memory_columns_in_elements_of_the_dtype():
    wide = "S[(128,1024):(1@TLane,1@TCol)]"  # 1024 columns: too many 32-bit cells ...
    assert run("check", wide).returncode == 1
    p = run("check", wide, "--dtype", "e4m3")  # ... but 1024 8-bit values fit in 256 cells
    assert p.returncode == 0 and "legal" in p.stdout


def test_check_flags_register_files_and_table_49():
    # issue 11: 16x256b x128 used to say "legal"; now num is capped (x32, PTX Table 49)
    p = run("check", "--preset", "tcgen05.ld.16x256b", "--param", "num=128")
    assert p.returncode == 2 and "Table 49" in p.stderr and "legal" not in p.stdout
    p = run("check", "S[(32,512):(1@laneid,1)]", "--dtype", "float32")
    assert p.returncode == 1 and "[registers]" in p.stdout and "at most 255" in p.stdout
    p = run("check", "--preset", "trainium.sbuf", "--param", "shape=2,100000",
            "--param", "generation=trn1")
    assert p.returncode == 2 and "192 KiB" in p.stderr
    p = run("check", "S[(2,2):(1@P,99999@F)]", "--generation", "trn1", "--dtype", "bfloat16")
    assert p.returncode == 1 and "[capacity]" in p.stdout and "192 KiB" in p.stdout
