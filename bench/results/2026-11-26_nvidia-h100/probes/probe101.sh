#!/usr/bin/env bash
# Probe 101: step 10 with A in registers (PACKA=3) runs INFLIGHT=0 by default (the driver's
# ptxas serialised the wgmmas once a slice's registers were redefined under a running wgmma,
# tma_a_regs.h).  Does INFLIGHT=1 or 2 build without that and run faster now?  TF32 and tf32x3
# at M = 128 / 16 (NT), the rules' forms; the driver's build log for the warning.
source .gpu/setup.sh
P=$OUT/probe101.txt
run() { local sz=$1 tr=$2; shift 2; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 200 build-gpu/clgemm --device nvidia --no-baseline --trans $tr --size $sz --iters 50 --format json "${a[@]}" 2>>$OUT/probe101.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), flush=True)' $sz $tr || echo "$sz $tr : no JSON"; }
T=wgmma_tma:BM=128,BN=128,WGN=128,STAGES=6,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1,SPLITK=3
X=wgmma_tma:BM=128,BN=128,WGN=128,STAGES=4,SWAP=1,SPLIT=1,PACKA=3,SPLITK=4
S=wgmma_tma:BM=128,BN=16,WGN=16,STAGES=11,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1,SPLITK=4
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for i in 1 2; do
  run 128x4096x4096 NT $T $T,INFLIGHT=1 $T,INFLIGHT=2 $X $X,INFLIGHT=1 $X,INFLIGHT=2
  run 16x4096x4096 NT $S $S,INFLIGHT=1 $S,INFLIGHT=2
done
for a in $T,INFLIGHT=1 $X,INFLIGHT=1; do
  echo "== build log $a"
  CLGEMM_NO_CACHE=1 CLGEMM_SHOW_BUILD_LOG=1 CLGEMM_BUILD_OPTIONS=-cl-nv-verbose timeout 100 build-gpu/clgemm --device nvidia --no-baseline --trans NT --size 128x4096x4096 --iters 3 --algo $a 2>&1 | grep -iE "serializ|warn|registers|C7513" | head -6
done
} > $P 2>&1
tail -2 $P
