#!/usr/bin/env bash
# The Debian libraries Qt needs on a bare machine (even offscreen), Xvfb and the xcb platform's
# libraries for the real-mouse tests, fonts, the .desktop/AppStream validators (packaging tests),
# and Chromium, which renders the HTML reports headless in tests/test_report_browser.py.
# With --java (make test, for the Spark tests): a Java runtime too, when `java` is not on PATH.
# Installs only what is missing, only as root; otherwise it says what to install and carries on.
set -euo pipefail
if [ "${1:-}" = "--java" ]; then
  command -v java >/dev/null && exit 0
  command -v dpkg-query >/dev/null || { echo "Spark needs Java 17 or later: install a JRE" >&2; exit 0; }
  if [ "$(id -u)" -ne 0 ]; then
    echo "Spark needs Java: sudo apt-get install openjdk-17-jre-headless" >&2
    exit 0
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # Debian 12 and Ubuntu 22.04/24.04 have 17; later releases may have only a newer default JRE.
  apt-get install -y -qq --no-install-recommends openjdk-17-jre-headless \
    || apt-get install -y -qq --no-install-recommends default-jre-headless
  exit 0
fi
pkgs=(
  libgl1 libegl1 libglib2.0-0 libfontconfig1 libfreetype6 libxkbcommon0 libdbus-1-3 fonts-dejavu-core
  xvfb xauth libxcb-cursor0 libxkbcommon-x11-0 libxcb-icccm4 libxcb-keysyms1 libxcb-shape0
  libxcb-xkb1 libxcb-image0 libxcb-render-util0 libxcb-randr0 libxcb-xfixes0 libxcb-xinerama0
  libx11-xcb1 binutils desktop-file-utils appstream chromium openbox
)
command -v dpkg-query >/dev/null || exit 0   # not Debian/Ubuntu: see README for other systems
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "Qt needs these Debian packages: sudo apt-get install ${missing[*]}" >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
