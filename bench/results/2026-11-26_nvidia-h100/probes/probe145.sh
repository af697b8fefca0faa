#!/usr/bin/env bash
# Probe 145: the N T batch with step 7's pipeline at BK=16 (159 registers in probe144, so one
# group per SM) capped at 128 registers by the driver (-cl-nv-maxrregcount=128), and forms that
# might need fewer, at both batch shapes; the rule (PREFETCH=0) and CLBlast beside.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe145.txt
one() { local opt=$1 sz=$2 b=$3 v=$4
  t=$(CLGEMM_BUILD_OPTIONS="-cl-nv-verbose $opt" CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_NO_CACHE=1 timeout 120 build-gpu/clgemm --device nvidia --trans NT --size $sz --batch $b --iters 100 --format json -q --algo $v 2>/tmp/err.txt | python3 -c 'import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]: print(r["algorithm"], r["status"], r.get("ms_median"), end="  ")')
  echo "$sz x$b [$opt] $(grep -o "Used [0-9]* registers\|[0-9]* bytes spill stores" /tmp/err.txt | head -2 | tr '\n' ' ') : $t"; }
W=warp_tiled:READT=1
{
cat .gpu/commit
for job in "128x128x64 512" "512x512x64 64"; do set -- $job
  for round in 1 2; do
    one "" $1 $2 $W,PREFETCH=0,BK=16,WM=64,WN=32
    one "-cl-nv-maxrregcount=128" $1 $2 $W,PREFETCH=1,BK=16,WM=64,WN=32
    one "-cl-nv-maxrregcount=128" $1 $2 $W,PREFETCH=1,BK=16
    one "" $1 $2 $W,PREFETCH=1,BK=16,WM=64,WN=32,CLAMP=1
    one "-cl-nv-maxrregcount=128" $1 $2 $W,PREFETCH=1,BK=8,WM=64,WN=32
  done
done
} > $P 2>&1
cat $P
