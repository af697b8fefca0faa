#!/usr/bin/env bash
# Probe 105: test_tma on the H100, as fixed (map_set completes the map the way step 10's
# producer does since 905159d) and as it was at HEAD (map_set replaced the address of a
# global map with the shared::cta form of tensormap.replace).
source .gpu/setup.sh
rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }
{ echo "== fixed"; timeout 120 build-gpu/tests/test_tma; echo "rc=$?"
  cp tests/test_tma.c /tmp/fixed.c; git show HEAD:tests/test_tma.c > tests/test_tma.c
  meson compile -C build-gpu tests/test_tma > /tmp/b2.log 2>&1
  echo "== as at HEAD ($(git rev-parse --short HEAD))"; timeout 120 build-gpu/tests/test_tma; echo "rc=$?"
  cp /tmp/fixed.c tests/test_tma.c; } > $OUT/probe105.txt 2>&1
grep -E "rc=|checks|==" $OUT/probe105.txt
