#!/usr/bin/env bash
# Probe 75: what step 10's per-group map set-up costs a call.  A probe-only tree (.gpu/head.tar.gz,
# HEAD, patched here) copies and rewrites the maps only when its slot lacks a marker (slots of
# 512 bytes), so that from the second call on, with the same buffers, no group writes a map or
# releases it to the copy engine; against HEAD's build, interleaved.
source .gpu/setup.sh
mkdir -p /tmp/skip && tar -C /tmp/skip -xzf .gpu/head.tar.gz && cp -r .gpu /tmp/skip/ &&
(cd /tmp/skip &&
 sed -i 's/#define TMA_MAP_SLOT_BYTES 384/#define TMA_MAP_SLOT_BYTES 512/' cl/mma/tma.h &&
 sed -i 's/TMA_MAP_SLOT_BYTES = 384/TMA_MAP_SLOT_BYTES = 512/' host/lib/enqueue.c &&
 sed -i 's|^            TMA_MAPS_COPY(maps, maps_in);|            if (*(__global volatile uint *)(maps + 508) != 0x5a5a5a5au) { TMA_MAPS_COPY(maps, maps_in);|; s|^            TMA_MAPS_SET(maps, A0_ + offA, B0_ + offB, C0_ + offC, K > 0, cmap);|            TMA_MAPS_SET(maps, A0_ + offA, B0_ + offB, C0_ + offC, K > 0, cmap); *(__global volatile uint *)(maps + 508) = 0x5a5a5a5au; }|' cl/10_wgmma_tma.cl &&
 grep -n "0x5a5a5a5a" cl/10_wgmma_tma.cl && grep -n "SLOT_BYTES 512" cl/mma/tma.h &&
 sed -i 's/for (int i_ = 0; i_ < TMA_MAP_SLOT_BYTES \/ 16; ++i_)/for (int i_ = 0; i_ < 384 \/ 16; ++i_)/' cl/mma/tma.h &&
 meson setup build-gpu --buildtype=release >/dev/null && meson compile -C build-gpu) > $OUT/build_skip.log 2>&1 || { echo "skip build failed"; tail -30 $OUT/build_skip.log; }
P=$OUT/probe75.txt
run() { local bin=$1 tag=$2 dt=$3 sz=$4 b=$5 tr=$6; shift 6; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  local o=(); [ $dt != f32 ] && o=(--out $dt)
  timeout 120 $bin --device nvidia --no-baseline --dtype $dt "${o[@]}" --trans $tr --size $sz --batch $b --iters 200 --format json "${a[@]}" 2>>$OUT/probe75.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("error"), flush=True)' $tag $dt $sz $b $tr; }
{
nvidia-smi --query-gpu=name --format=csv,noheader
for rep in 1 2; do for tree in head skip; do bin=build-gpu/clgemm; [ $tree = skip ] && bin=/tmp/skip/build-gpu/clgemm
  run $bin $rep-$tree bf16 16x4096x64 1 NT tensor_core
  run $bin $rep-$tree bf16 64x64x64 1 NT tensor_core
  run $bin $rep-$tree bf16 16x4096x4096 1 NT tensor_core
  run $bin $rep-$tree bf16 128x128x64 512 NN tensor_core
  run $bin $rep-$tree bf16 512x512x64 64 NN tensor_core
  run $bin $rep-$tree f32 128x128x64 512 NT tensor_core
  run $bin $rep-$tree f32 128x4096x4096 1 NT tensor_core
done; done
} > $P 2>&1
tail -1 $P
