#!/usr/bin/env bash
# Browser tests drive Debian's Chromium; install it when it is missing (needs root).
# Only chromium and what it depends on: no recommended packages (--no-install-recommends),
# and no upgrade of a package already installed. When chromium needs newer versions of
# installed packages (an out-of-date system), nothing is installed: the script lists them
# and stops, unless TILELAYOUT_APT_UPGRADE=1 allows the upgrade.
# CHROMIUM_BIN (default /usr/bin/chromium) is the browser looked for.
set -euo pipefail
if [ -x "${CHROMIUM_BIN:-/usr/bin/chromium}" ]; then exit 0; fi
echo "[setup] installing Debian's chromium (without recommended packages)" >&2
if [ "$(id -u)" -ne 0 ]; then sudo=sudo; else sudo=; fi
$sudo apt-get update -qq >&2
install=(apt-get install -y -qq --no-install-recommends)
# the install, simulated: "Inst NAME [INSTALLED VERSION] (...)" is an upgrade
upgrades=$(apt-get install -s --no-install-recommends chromium | sed -n 's/^Inst \([^ ]*\) \[.*/\1/p')
if [ -n "$upgrades" ] && [ "${TILELAYOUT_APT_UPGRADE:-0}" != 1 ]; then
  echo "[setup] chromium needs newer versions of installed packages:" $upgrades >&2
  echo "[setup] not upgrading them: update the system, or run again with TILELAYOUT_APT_UPGRADE=1" >&2
  exit 1
fi
DEBIAN_FRONTEND=noninteractive $sudo "${install[@]}" chromium >&2
