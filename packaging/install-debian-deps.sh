#!/usr/bin/env bash
# Debian/Ubuntu packages, in three sets; installs only what is missing, only as root (otherwise it
# says what to install and carries on):
#   (no option)  what the window needs on a bare machine (`make run`): the libraries Qt loads even
#                offscreen, the xcb platform's libraries for an X11 desktop, and fonts;
#   --test       what `make test` adds: Xvfb and a window manager (openbox) for the real-mouse
#                tests, the .desktop/AppStream validators, binutils (PyInstaller's objdump) and
#                Chromium, which renders the HTML reports headless in tests/test_report_browser.py;
#   --java       a Java runtime for the Spark tests, when `java` is not on PATH.
set -euo pipefail
runtime=(
  libgl1 libegl1 libglib2.0-0 libfontconfig1 libfreetype6 libxkbcommon0 libdbus-1-3 fonts-dejavu-core
  libxcb-cursor0 libxkbcommon-x11-0 libxcb-icccm4 libxcb-keysyms1 libxcb-shape0 libxcb-xkb1
  libxcb-image0 libxcb-render-util0 libxcb-randr0 libxcb-xfixes0 libxcb-xinerama0 libx11-xcb1
)
tests=(xvfb xauth openbox binutils desktop-file-utils appstream chromium)

case "${1:-}" in
  "") pkgs=("${runtime[@]}"); why="Qt needs" ;;
  --test) pkgs=("${tests[@]}"); why="the tests need" ;;
  --java)
    command -v java >/dev/null && exit 0
    command -v dpkg-query >/dev/null || { echo "Spark needs Java 17 or later: install a JRE" >&2; exit 0; }
    # Debian 12 and Ubuntu 22.04/24.04 have 17; later releases may have only a newer default JRE.
    pkgs=(openjdk-17-jre-headless); why="Spark needs" ;;
  *) echo "usage: $0 [--test | --java]" >&2; exit 2 ;;
esac
command -v dpkg-query >/dev/null || exit 0   # not Debian/Ubuntu: see docs/install.md for other systems
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "$why these Debian packages: sudo apt-get install ${missing[*]}" >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
if [ "${1:-}" = "--java" ]; then
  apt-get install -y -qq --no-install-recommends openjdk-17-jre-headless \
    || apt-get install -y -qq --no-install-recommends default-jre-headless
else
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
