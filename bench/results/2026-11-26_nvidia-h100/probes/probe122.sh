#!/usr/bin/env bash
# Probe 122: step 10's one-launch split at 16-bit M <= 128 (probe47 at 616022e: 2 slices 0.0284
# ms against 0.0184 unsplit at bf16 128x4096x4096): at HEAD, the rule, SPLITK=2/3/4, and the
# same work as one launch of half K (what the slices cost without the sum).
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe122.txt
run() { local sz=$1 tr=$2 dt=$3 extra=$4; shift 4; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 200 build-gpu/clgemm --device nvidia --no-baseline --trans $tr --size $sz --dtype $dt --out $dt $extra --iters 100 --format json -q "${a[@]}" 2>>$OUT/probe122.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), r.get("params"), flush=True)' $sz $tr $dt "$extra" || echo "$sz $tr : no JSON"; }
R128=wgmma_tma:BM=64,BN=128,WGN=128,STAGES=8,SWAP=1,INFLIGHT=1
R16=wgmma_tma:BM=64,BN=16,WGN=16,STAGES=16,SWAP=1,INFLIGHT=1
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit
for dt in bf16 f16; do
  run 128x4096x4096 NT $dt "" tensor_core $R128,SPLITK=2 $R128,SPLITK=3 $R128,SPLITK=4 $R128,STAGES=4,SPLITK=2
  run 128x4096x2048 NT $dt "" $R128
  run 128x4096x14336 NT $dt "" tensor_core $R128,SPLITK=2
  run 16x4096x4096 NT $dt "" tensor_core $R16,SPLITK=2 $R16,SPLITK=4
  run 16x4096x2048 NT $dt "" $R16
  run 16x4096x14336 NT $dt "" tensor_core $R16,SPLITK=2 $R16,SPLITK=4
  run 16x4096x14336 NT $dt --cold-l2 tensor_core $R16,SPLITK=2 $R16,SPLITK=4
done
python3 bench/cublas.py f16:128x4096x4096:NT bf16:128x4096x4096:NT bf16:16x4096x4096:NT bf16:16x4096x14336:NT bf16:16x4096x14336:NT:cold 2>&1 | grep "^cublas"
} > $P 2>&1
tail -5 $P
