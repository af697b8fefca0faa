# Sourced by tests/test_tc_ptxas.sh and tests/test_wgmma_ptxas.sh after `root` is set: finds
# clang-15 and ptxas (exit 77, skipped, without them), makes $tmp (removed on exit) holding
# the prelude of the OpenCL built-ins clang's nvcl target lacks (tests/ptxas_prelude.h), and
# defines expand FILE, the host's #include "x.h" expansion of one file of cl/.
clang=$(command -v clang-15 || true)
ptxas=$(command -v ptxas || ls /usr/local/cuda/bin/ptxas 2>/dev/null || true)
[ -n "$clang" ] && [ -n "$ptxas" ] || { echo "SKIP: needs clang-15 and ptxas"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$root/tests/ptxas_prelude.h" "$tmp/prelude.h"
expand() {
    python3 - "$root/cl" "$1" <<'PY'
import re, sys
def expand(name):
    out = []
    for line in open(sys.argv[1] + '/' + name):
        m = re.match(r'\s*#include "([^"]+)"', line)
        out.append(expand(m.group(1)) + '\n' if m else line)
    return ''.join(out)
sys.stdout.write(expand(sys.argv[2]))
PY
}
