"""scripts/ensure-chromium.sh installs chromium alone: without recommended packages and
without upgrading packages already installed (issue 28: apt upgraded perl, systemd and
udev). Run with a stand-in apt-get that records what it is asked and simulates an install."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "ensure-chromium.sh"

# a stand-in apt-get: logs its arguments; `install -s` prints the simulation in $SIMULATION
FAKE_APT = """#!/usr/bin/env bash
echo "$*" >> "$LOG"
if [ "$1" = install ] && [[ " $* " == *" -s "* ]]; then cat "$SIMULATION"; fi
"""

NEW_ONLY = """Inst libxnvctrl0 (525.85.05-3~deb12u1 Debian:12.12/stable [amd64])
Inst chromium-common (156.0.8078.114-1~deb12u1 Debian-Security:12/stable-security [amd64])
Inst chromium (156.0.8078.114-1~deb12u1 Debian-Security:12/stable-security [amd64])
Conf chromium (156.0.8078.114-1~deb12u1 Debian-Security:12/stable-security [amd64])
"""
WITH_UPGRADES = NEW_ONLY + """Inst perl [5.36.0-7+deb12u1] (5.36.0-7+deb12u2 Debian:12.12/stable [amd64])
Inst udev [252.30-1~deb12u2] (252.38-1~deb12u1 Debian:12.12/stable [amd64])
"""


def _run(tmp_path, simulation, **env):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    for name, text in (("apt-get", FAKE_APT), ("sudo", '#!/usr/bin/env bash\nexec "$@"\n')):
        (bin_dir / name).write_text(text)  # sudo: as a user who may (the script needs root)
        (bin_dir / name).chmod(0o755)
    (tmp_path / "sim.txt").write_text(simulation)
    log = tmp_path / "apt.log"
    log.write_text("")
    run_env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "LOG": str(log), "SIMULATION": str(tmp_path / "sim.txt"),
               "CHROMIUM_BIN": str(tmp_path / "no-chromium"), **env}
    done = subprocess.run(["bash", str(SCRIPT)], capture_output=True, text=True, env=run_env, timeout=60)
    return done, log.read_text().splitlines()


def test_chromium_is_installed_alone(tmp_path):
    done, calls = _run(tmp_path, NEW_ONLY)
    assert done.returncode == 0, done.stderr
    installs = [c for c in calls if c.startswith("install") and " -s " not in f" {c} "]
    assert installs == ["install -y -qq --no-install-recommends chromium"]
    assert not any("upgrade" in c.split()[0] for c in calls)


def test_no_installed_package_is_upgraded_unless_allowed(tmp_path):
    done, calls = _run(tmp_path, WITH_UPGRADES)
    assert done.returncode == 1
    assert "newer versions of installed packages: perl udev" in done.stderr
    assert not [c for c in calls if c.startswith("install") and " -s " not in f" {c} "]
    done, calls = _run(tmp_path, WITH_UPGRADES, TILELAYOUT_APT_UPGRADE="1")
    assert done.returncode == 0 and calls[-1] == "install -y -qq --no-install-recommends chromium"


def test_an_installed_chromium_is_left_alone(tmp_path):
    (tmp_path / "chromium").write_text("#!/bin/sh\n")
    (tmp_path / "chromium").chmod(0o755)
    done, calls = _run(tmp_path, NEW_ONLY, CHROMIUM_BIN=str(tmp_path / "chromium"))
    assert done.returncode == 0 and calls == []
