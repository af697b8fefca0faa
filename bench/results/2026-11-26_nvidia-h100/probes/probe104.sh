#!/usr/bin/env bash
# Probe 104: can a TMA box start at a column that is not on 16 bytes of its row?  (The
# eight-map design for tight 16-bit operands in docs/10_wgmma_tma.md needs it.)  test_tma,
# patched on the device only: every box at the corner given in $CORNER, one process per
# corner (a failed kernel may leave the context unusable).
source .gpu/setup.sh
sed -i 's/static const int corners\[\]\[2\] = .*/int corners[4][2]; { const char *cs_ = getenv("CORNER"); int x_ = 0, y_ = 0; if (cs_) sscanf(cs_, "%d,%d", \&x_, \&y_); for (int i_ = 0; i_ < 4; i_++) { corners[i_][0] = x_; corners[i_][1] = y_; } }/' tests/test_tma.c
grep -n "CORNER" tests/test_tma.c
rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }
for corner in 0,0 8,0 4,0 1,0 3,5 190,40 64,32; do
  echo "== corner $corner"; CORNER=$corner timeout 60 build-gpu/tests/test_tma 2>&1 | head -12
done > $OUT/probe104.txt
cat $OUT/probe104.txt | grep -c ok
