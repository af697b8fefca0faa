#!/usr/bin/env bash
# Adding a step is one .cl file plus its rows in host/lib/registry.c, nothing else: a copy of
# the source tree gets a throw-away step 12 (the naive kernel under another name), the two
# rows are inserted, the copy is built, and `clgemm --algo throwaway` must verify at an odd
# size and `--algo list` must show it as step 12.  A planted wrong kernel must FAIL, so the
# run really goes through the new file.
# usage: test_add_step.sh SOURCE_ROOT
set -uo pipefail
src=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# The tracked files only (no build directories).
(cd "$src" && git ls-files -z 2>/dev/null | xargs -0 -I{} cp --parents {} "$work") ||
    fail "cannot copy the source tree"
[ -f "$work/meson.build" ] || fail "the copy has no meson.build (not a git checkout?)"

# 1. The kernel file: step 1's loop under a new kernel name.
sed 's/gemm_naive/gemm_throwaway/' "$src/cl/01_naive.cl" > "$work/cl/12_throwaway.cl"

# 2. The two registry rows, after step 11's.
python3 - "$work/host/lib/registry.c" <<'PY' || fail "could not insert the registry rows"
import sys
p = sys.argv[1]
s = open(p).read()
algo_anchor = '    { { "tensor_core", '
variant_anchor = '};\n\n#define COUNT(a)'
assert algo_anchor in s and variant_anchor in s
s = s.replace(algo_anchor,
    '    { { "throwaway", "step 1 again, added by tests/test_add_step.sh",\n'
    '        "BM=16 BN=16", 1, "fp32", 12 }, NULL, 0, false },\n' + algo_anchor, 1)
s = s.replace(variant_anchor,
    '    SIMT("throwaway", "12_throwaway.cl", "gemm_throwaway", "BM=16 BN=16", "",\n'
    '         LAUNCH_TILE_ROWS, 1),\n' + variant_anchor, 1)
open(p, 'w').write(s)
PY
git -C "$src" diff --no-index --stat "$src/host/lib/registry.c" "$work/host/lib/registry.c" |
    tail -1

# 3. Build only the program (no tests), as a user adding a step would.
meson setup "$work/b" "$work" --buildtype=debug -Dclblast=disabled > "$work/setup.log" 2>&1 ||
    { cat "$work/setup.log"; fail "meson setup"; }
meson compile -C "$work/b" clgemm:executable > "$work/build.log" 2>&1 ||
    { tail -30 "$work/build.log"; fail "build"; }

out=$(CLGEMM_NO_CACHE=1 "$work/b/clgemm" --device pocl --algo throwaway --size 37x29x17 \
      --alpha -1.5 --beta 0.5 --no-baseline --quiet --format csv) ||
    { echo "$out"; fail "clgemm --algo throwaway exited $?"; }
echo "$out"
grep -q '^[^,]*,.*throwaway,ok,' <<< "$out" || grep -q 'throwaway.*,ok,' <<< "$out" ||
    fail "the new step did not verify"
list=$("$work/b/clgemm" --device pocl --algo list) || fail "--algo list"
grep -E '^throwaway +12 ' <<< "$list" || fail "--algo list does not show step 12"
grep -q '12_throwaway.cl:gemm_throwaway' <<< "$list" || fail "--algo list does not name its file"

# 4. Planted: the new file computing the wrong thing must fail, so the row ran that file.
sed -i 's/acc = fma(a\[k\], b\[k \* ldb\], acc);/acc = fma(-a[k], b[k * ldb], acc);/' "$work/cl/12_throwaway.cl"
grep -q 'fma(-a' "$work/cl/12_throwaway.cl" || fail "could not plant the bug"
out=$(CLGEMM_KERNEL_DIR="$work/cl" CLGEMM_NO_CACHE=1 "$work/b/clgemm" --device pocl \
      --algo throwaway --size 37x29x17 --no-baseline --quiet --format csv)
rc=$?
[ $rc -eq 1 ] && grep -q 'FAIL' <<< "$out" || { echo "$out"; fail "planted bug not caught (exit $rc)"; }
echo "planted bug caught (exit 1, FAIL)"
echo "1 passed, 0 failed"
