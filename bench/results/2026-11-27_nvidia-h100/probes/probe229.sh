#!/usr/bin/env bash
# Probe 229: step 11 at M = 16, fp32 N T, tiles around the rule's (A staged, AL) with more loads
# in flight (UNROLL 2), smaller groups and other K teams; each split so that groups x slices
# is about 1.75 per SM, as the rule's split_per_cu; cold L2, twice.
source .gpu/setup.sh
P=$OUT/probe229.txt
rm -rf build-gpu; { meson setup build-gpu --buildtype=release && meson compile -C build-gpu; } > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
show() { python3 -c '
import json,sys
for res in json.load(sys.stdin)["results"]:
  for r in res["rows"]:
    print(sys.argv[1], r["algorithm"][:70], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("gbps"), (r.get("note") or r.get("message") or "")[5:90], flush=True)' "$1" || echo "$1: no JSON"; }
CFG="WG=256,KT=16,RN=4,UNROLL=1,AL=512 WG=256,KT=16,RN=4,UNROLL=2,AL=512 WG=128,KT=16,RN=4,UNROLL=2,AL=512
WG=128,KT=16,RN=4,UNROLL=1,AL=512 WG=256,KT=16,RN=2,UNROLL=2,AL=512 WG=256,KT=16,RN=2,UNROLL=4,AL=512
WG=256,KT=32,RN=4,UNROLL=1,AL=512 WG=256,KT=32,RN=4,UNROLL=2,AL=512 WG=256,KT=8,RN=4,UNROLL=2,AL=512
WG=256,KT=8,RN=4,UNROLL=1,AL=512 WG=256,KT=16,RN=8,UNROLL=1,AL=512 WG=512,KT=16,RN=4,UNROLL=1,AL=512
WG=128,KT=8,RN=4,UNROLL=2,AL=512 WG=256,KT=16,RN=4,UNROLL=1,AL=1024 WG=256,KT=16,RN=4,UNROLL=2,AL=256
WG=256,KT=16,RN=4,UNROLL=2,AL=1024"
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for rep in 1 2; do
for s in 16x4096x14336 16x28672x4096 16x4096x4096; do
  N=$(echo $s | cut -dx -f2); K=$(echo $s | cut -dx -f3)
  a=(--algo auto)
  for c in $CFG; do
    sp=$(python3 -c "
import re;d=dict(kv.split('=') for kv in '$c'.split(','));bn=int(d['WG'])*int(d['RN'])//int(d['KT'])
g=-(-$N//bn);print(max(1,min(round(231/g),$K//512)))")
    a+=(--algo "skinny:$c,BM=16,SPLITK=$sp")
  done
  build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 100 --cold-l2 --trans NT --size $s "${a[@]}" 2>>$OUT/probe229.err | show "rep$rep $s"
done
done
} > $P 2>&1
cat $P
