#!/usr/bin/env bash
# Installs hostplan into the user's application menu from the Linux archive
# that make package writes, without root; uninstall removes exactly what
# install wrote.
#   scripts/install.sh install ARCHIVE [PREFIX]   PREFIX defaults to ~/.local
#   scripts/install.sh uninstall [PREFIX]
# Install writes three files:
#   PREFIX/bin/hostplan
#   PREFIX/share/applications/io.hostplan.app.desktop   (Exec= and Icon= these files)
#   PREFIX/share/icons/hicolor/SIZE/apps/io.hostplan.app.png
# and checks the entry with desktop-file-validate when it is installed.
# Uninstall removes those files and the directories left empty below PREFIX.
set -euo pipefail

app_id=io.hostplan.app
usage() { echo "usage: scripts/install.sh install ARCHIVE [PREFIX] | uninstall [PREFIX]" >&2; exit 2; }

# The files install writes under prefix; the icon's size directory is
# whatever install found, so uninstall looks for it.
bin_of() { echo "$1/bin/hostplan"; }
desktop_of() { echo "$1/share/applications/$app_id.desktop"; }

# png_size prints a PNG's width x height, from its IHDR chunk.
png_size() {
  local w h
  read -r w h < <(od -An -tu4 --endian=big -j16 -N8 "$1")
  echo "${w}x${h}"
}

# remove_empty_dirs removes dir and its parents while they are empty,
# stopping below prefix.
remove_empty_dirs() {
  local dir=$1 prefix=$2
  while [ "$dir" != "$prefix" ] && [ "${dir#"$prefix"/}" != "$dir" ] && rmdir "$dir" 2>/dev/null; do
    dir=$(dirname "$dir")
  done
}

install_app() {
  local archive=$1 prefix=$2
  [ -f "$archive" ] || { echo "install: no archive at $archive (make package writes it)" >&2; exit 2; }
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  tar -xJf "$archive" -C "$tmp"
  # fyne package lays the archive out as hostplan/usr/local/… (or usr/…
  # where the packaging machine had no /usr/local).
  local exe desktop icon
  exe=$(find "$tmp" -path '*/bin/hostplan' -type f | head -1)
  desktop=$(find "$tmp" -path "*/share/applications/$app_id.desktop" -type f | head -1)
  icon=$(find "$tmp" -path "*/share/pixmaps/$app_id.png" -type f | head -1)
  if [ -z "$exe" ] || [ -z "$desktop" ] || [ -z "$icon" ]; then
    echo "install: $archive lacks the executable, the desktop entry or the icon" >&2
    exit 1
  fi
  local size
  size=$(png_size "$icon")
  local bin_dst desktop_dst icon_dst
  bin_dst=$(bin_of "$prefix")
  desktop_dst=$(desktop_of "$prefix")
  icon_dst="$prefix/share/icons/hicolor/$size/apps/$app_id.png"

  install -Dm0755 "$exe" "$bin_dst"
  install -Dm0644 "$icon" "$icon_dst"
  # The menu starts hostplan by its full path: ~/.local/bin is not on
  # every session's PATH (a path with spaces is quoted, as the
  # desktop-entry specification asks). The icon too is named by its path,
  # which needs no icon theme to find it.
  local exec=$bin_dst
  case $exec in *[[:space:]]*) exec="\"$exec\"" ;; esac
  mkdir -p "$(dirname "$desktop_dst")"
  sed -e "s|^Exec=.*|Exec=$exec|" -e "s|^Icon=.*|Icon=$icon_dst|" "$desktop" > "$desktop_dst.tmp"
  chmod 0644 "$desktop_dst.tmp"
  mv -f "$desktop_dst.tmp" "$desktop_dst"
  if command -v desktop-file-validate >/dev/null 2>&1; then
    desktop-file-validate "$desktop_dst"
  fi
  echo "installed $bin_dst"
  echo "installed $desktop_dst"
  echo "installed $icon_dst"
  case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "note: $prefix/bin is not on PATH; the menu entry works regardless" ;; esac
}

uninstall_app() {
  local prefix=$1 f
  for f in "$(bin_of "$prefix")" "$(desktop_of "$prefix")" "$prefix"/share/icons/hicolor/*/apps/"$app_id".png; do
    if [ -f "$f" ]; then
      rm -f "$f"
      echo "removed $f"
      remove_empty_dirs "$(dirname "$f")" "$prefix"
    fi
  done
}

case "${1:-}" in
  install)
    [ $# -ge 2 ] && [ $# -le 3 ] || usage
    install_app "$2" "$(realpath -m "${3:-$HOME/.local}")"
    ;;
  uninstall)
    [ $# -le 2 ] || usage
    uninstall_app "$(realpath -m "${2:-$HOME/.local}")"
    ;;
  *) usage ;;
esac
