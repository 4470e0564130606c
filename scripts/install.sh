#!/usr/bin/env bash
# Builds the showcase app and the command-line tool in release mode and installs them with
# their desktop integration: the desktop entry, the icons, the AppStream metainfo and the
# translations.
# Usage: scripts/install.sh [--prefix DIR] [--destdir DIR] [--bin-dir DIR]...
#   --prefix DIR   where the files go and where they will run from; $HOME/.local by default.
#   --destdir DIR  stages the files under DIR (DIR/PREFIX/...), for packaging.
#   --bin-dir DIR  installs showcase and tactile from DIR instead of building them; may be
#                  given more than once, each program is taken from the first DIR that has it.
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: scripts/install.sh [--prefix DIR] [--destdir DIR] [--bin-dir DIR]...

Builds showcase and tactile (swift build -c release) and installs, under PREFIX:
  bin/showcase, bin/tactile (and the resource bundles beside them)
  share/applications/org.tactile.Showcase.desktop
  share/icons/hicolor/{scalable,symbolic}/apps/org.tactile.Showcase*.svg
  share/metainfo/org.tactile.Showcase.metainfo.xml
  share/locale/LANG/LC_MESSAGES/tactile.mo, for each translation found
    (po/LANG.po, compiled with msgfmt, or .build/locale/LANG/LC_MESSAGES/*.mo)

Options:
  --prefix DIR   an absolute path; default $HOME/.local
  --destdir DIR  stage the files under DIR (DIR/PREFIX/...) instead of PREFIX itself
  --bin-dir DIR  take the programs from DIR instead of building them; may be repeated,
                 each program comes from the first DIR that has it
  -h, --help     show this help
EOF
}

fail() {
  echo "install.sh: $*" >&2
  exit 2
}

prefix="${HOME:-}/.local"
prefix_given=false
destdir=""
bin_dirs=()

# Reads the value of an option, from `--name=VALUE` or from the next argument.
while (($# > 0)); do
  option="$1"
  case "$option" in
    -h | --help) usage; exit 0 ;;
    --prefix=* | --destdir=* | --bin-dir=*) name="${option%%=*}"; value="${option#*=}"; shift ;;
    --prefix | --destdir | --bin-dir)
      name="$option"
      (($# >= 2)) || fail "$name needs a directory (see --help)"
      value="$2"
      shift 2
      ;;
    *) fail "unknown option '$option' (see --help)" ;;
  esac
  [[ -n "$value" ]] || fail "$name needs a directory, got an empty value"
  case "$name" in
    --prefix) prefix="$value"; prefix_given=true ;;
    --destdir) destdir="$value" ;;
    --bin-dir)
      [[ -d "$value" ]] || fail "--bin-dir '$value' is not a directory"
      bin_dirs+=("$(cd "$value" && pwd)")
      ;;
  esac
done

if [[ "$prefix_given" == false && -z "${HOME:-}" ]]; then
  fail "HOME is not set; give --prefix DIR"
fi
[[ "$prefix" == /* ]] || fail "--prefix '$prefix' is not an absolute path"
# The prefix goes into the desktop entry's Exec line, where most punctuation would need quoting.
if [[ ! "$prefix" =~ ^[A-Za-z0-9/._+,:@=-]+$ ]]; then
  fail "--prefix '$prefix' may hold only letters, digits and / . _ + , : @ = - (it goes into the desktop entry's Exec line)"
fi
prefix="${prefix%/}"
if [[ -n "$destdir" ]]; then
  if [[ -e "$destdir" && ! -d "$destdir" ]]; then
    fail "--destdir '$destdir' exists and is not a directory"
  fi
  [[ "$destdir" == /* ]] || destdir="$PWD/$destdir"
  destdir="${destdir%/}"
fi
root="$destdir$prefix"

cd "$(dirname "$0")/.."

# The programs: built here, or taken from --bin-dir.
programs=(showcase tactile)
if ((${#bin_dirs[@]} == 0)); then
  command -v swift >/dev/null || fail "swift is not on PATH (add the toolchain's usr/bin, or give --bin-dir)"
  for program in "${programs[@]}"; do
    echo "== swift build -c release --product $program" >&2
    swift build -c release --product "$program"
  done
  bin_dirs=("$(swift build -c release --show-bin-path)")
fi

declare -A source_of=()
for program in "${programs[@]}"; do
  for dir in "${bin_dirs[@]}"; do
    if [[ -f "$dir/$program" && -x "$dir/$program" ]]; then
      source_of[$program]="$dir/$program"
      break
    fi
  done
  [[ -n "${source_of[$program]:-}" ]] || fail "no executable '$program' in ${bin_dirs[*]}"
done

installed=()
put() { # put MODE SOURCE DESTINATION
  install -Dm"$1" -- "$2" "$3"
  installed+=("$3")
}

for program in "${programs[@]}"; do
  put 755 "${source_of[$program]}" "$root/bin/$program"
done

# SwiftPM resource bundles (the captcha service's widget.js and demo pages) are looked up
# beside the executable.
declare -A bundle_done=()
for program in "${programs[@]}"; do
  dir="$(dirname "${source_of[$program]}")"
  for bundle in "$dir"/*.resources; do
    [[ -d "$bundle" ]] || continue
    name="$(basename "$bundle")"
    [[ -z "${bundle_done[$name]:-}" ]] || continue
    bundle_done[$name]=1
    while IFS= read -r -d '' file; do
      put 644 "$file" "$root/bin/$name/${file#"$bundle"/}"
    done < <(find "$bundle" -type f -print0 | sort -z)
  done
done

# The desktop entry runs the installed program by its full path unless the prefix's bin is
# one that is always on PATH.
work="$(mktemp -d)"
trap 'rm -rf -- "$work"' EXIT
desktop=data/org.tactile.Showcase.desktop
case "$prefix" in
  /usr | /usr/local) exec_line="Exec=showcase" ;;
  *) exec_line="Exec=$prefix/bin/showcase" ;;
esac
grep -qx 'Exec=showcase' "$desktop" || fail "$desktop has no line 'Exec=showcase' to point at the installed program"
while IFS= read -r line; do
  [[ "$line" != "Exec=showcase" ]] || line="$exec_line"
  printf '%s\n' "$line"
done <"$desktop" >"$work/entry.desktop"
put 644 "$work/entry.desktop" "$root/share/applications/org.tactile.Showcase.desktop"

while IFS= read -r -d '' icon; do
  put 644 "$icon" "$root/share/${icon#data/}"
done < <(find data/icons -type f -name '*.svg' -print0 | sort -z)

put 644 data/org.tactile.Showcase.metainfo.xml "$root/share/metainfo/org.tactile.Showcase.metainfo.xml"

# Translations: po/LANG.po compiled here; otherwise a catalog the build left in .build/locale.
valid_language='^[a-z]{2,3}(_[A-Z]{2})?(@[a-z]+)?$'
declare -A language_done=()
for po in po/*.po; do
  [[ -f "$po" ]] || continue
  language="$(basename "$po" .po)"
  [[ "$language" =~ $valid_language ]] || fail "$po: '$language' is not a language code like zh_CN"
  command -v msgfmt >/dev/null || fail "msgfmt is missing to compile $po (scripts/setup.sh installs gettext)"
  msgfmt --check --output-file="$work/$language.mo" -- "$po" || fail "msgfmt could not compile $po"
  put 644 "$work/$language.mo" "$root/share/locale/$language/LC_MESSAGES/tactile.mo"
  language_done[$language]=1
done
for dir in .build/locale/*/LC_MESSAGES; do
  [[ -d "$dir" ]] || continue
  language="$(basename "$(dirname "$dir")")"
  [[ -z "${language_done[$language]:-}" ]] || continue
  [[ "$language" =~ $valid_language ]] || fail "$dir: '$language' is not a language code like zh_CN"
  catalogs=("$dir"/*.mo)
  [[ -f "${catalogs[0]}" ]] || continue
  ((${#catalogs[@]} == 1)) || fail "$dir holds several catalogs (${catalogs[*]}); expected one"
  put 644 "${catalogs[0]}" "$root/share/locale/$language/LC_MESSAGES/tactile.mo"
  language_done[$language]=1
done
if ((${#language_done[@]} == 0)); then
  echo "install.sh: no translations found (po/*.po or .build/locale/*/LC_MESSAGES/*.mo); English only" >&2
fi

printf 'installed %s\n' "${installed[@]}"
if [[ -z "$destdir" ]]; then
  case ":${PATH:-}:" in
    *":$prefix/bin:"*) ;;
    *) echo "install.sh: note: $prefix/bin is not on PATH; run the programs by their full path" >&2 ;;
  esac
fi
