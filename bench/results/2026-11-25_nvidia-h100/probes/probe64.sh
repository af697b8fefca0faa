#!/usr/bin/env bash
# Probe 64: what step 11's one-launch split costs at fp32 M = 16 (the auto rule, NT): its
# partial sums move as OpenCL 1.2 atomic words (atomic_xchg out, atomic_or back).  A temporary
# knob (probe64_knob.diff, SK_DEBUG through CLGEMM_BUILD_OPTIONS): bit 1 no sum (timed with
# --no-check), 2 plain loads for the sum, 4 plain stores for the partial sums (both verified).
source .gpu/setup.sh
T0=$(date +%s)
(meson setup build-gpu --buildtype=release >/dev/null && meson compile -C build-gpu) > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
P=$OUT/probe64.txt
run() { local tag=$1 sz=$2 opts=$3 chk=$4; shift 4; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  CLGEMM_NO_CACHE=1 CLGEMM_BUILD_OPTIONS="$opts" timeout 300 build-gpu/clgemm --device nvidia --no-baseline --trans NT --size $sz --iters 100 --format json $chk "${a[@]}" 2>>$OUT/probe64.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), (r.get("note") or "")[:50], flush=True)' $tag $sz "${opts:-none}"; }
AL="skinny:WG=256,KT=8,RN=2,UNROLL=2,AL=512,BM=16"
{
for rep in 1 2; do
  for sz in 16x4096x4096 16x6144x4096 16x4096x14336 16x28672x4096 8x4096x4096; do
    run r$rep $sz "" "" auto "$AL,SPLITK=1" "$AL,SPLITK=4" "$AL,SPLITK=6"
    run r$rep $sz "-DSK_DEBUG=1" --no-check "$AL,SPLITK=4" "$AL,SPLITK=6"
    run r$rep $sz "-DSK_DEBUG=2" "" "$AL,SPLITK=4" "$AL,SPLITK=6"
    run r$rep $sz "-DSK_DEBUG=6" "" "$AL,SPLITK=4" "$AL,SPLITK=6"
  done
done
echo "done at $(( $(date +%s) - T0 )) s"
} > $P 2>&1
tail -1 $P
