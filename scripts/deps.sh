#!/usr/bin/env bash
# Installs the Debian packages hostplan needs when they are missing.
# Idempotent: installs nothing when everything is present. Runs apt-get as
# root or through sudo; on a system without apt-get it prints what to install.
#   scripts/deps.sh build   – cgo toolchain and the X11/OpenGL headers Fyne builds with,
#                             and xz for make package
#   scripts/deps.sh windows – the above, plus the MinGW-w64 C cross-compiler that
#                             make windows builds Fyne's cgo parts for Windows with
#   scripts/deps.sh test    – build, plus Xvfb for the display tests (make test,
#                             make test-race) and Gnumeric, whose ssconvert
#                             recalculates exported workbooks (make test)
#   scripts/deps.sh workbook – test, plus LibreOffice Calc to recalculate exported
#                             workbooks (make test-workbook)
#   scripts/deps.sh release – test and windows, plus Wine to run the Windows
#                             executable's tests and desktop-file-validate for
#                             make install's entry (make release-check)
set -euo pipefail

# xz-utils: make package writes a .tar.xz (not on a minimal Debian).
build=(gcc pkg-config libgl1-mesa-dev libx11-dev libxcursor-dev libxrandr-dev
       libxinerama-dev libxi-dev libxxf86vm-dev xz-utils)
windows=(gcc-mingw-w64-x86-64)
# wine is the /usr/bin/wine launcher; wine64 the 64-bit Wine it launches
# (the 32-bit half, wine32, is not needed for a 64-bit executable).
# gnumeric: ssconvert --recalc, the quick suite's workbook sweep.
test=(xvfb xauth gnumeric)
workbook=(libreoffice-calc-nogui)
release=(wine wine64 desktop-file-utils)

want=("${build[@]}")
case "${1:-build}" in
  build) ;;
  windows) want+=("${windows[@]}") ;;
  test) want+=("${test[@]}") ;;
  workbook) want+=("${test[@]}" "${workbook[@]}") ;;
  release) want+=("${windows[@]}" "${test[@]}" "${release[@]}") ;;
  *) echo "usage: scripts/deps.sh [build|windows|test|workbook|release]" >&2; exit 2 ;;
esac

if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
  echo "Not a Debian-like system: install the equivalents of these packages yourself:"
  printf '  %s\n' "${want[@]}"
  exit 0
fi

missing=()
for p in "${want[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
  else
    echo "Missing packages and no root or sudo: as root, run"
    echo "  apt-get install -y ${missing[*]}"
    exit 1
  fi
fi
echo "Installing: ${missing[*]}"
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
