#!/usr/bin/env bash
# Probe 108: fp32 auto batches as shipped at HEAD (the rules by A's layout, the loosest class
# for taller problems), every transpose, CLBlast beside in each command, cuBLAS after; then
# taller problems that fill the device (auto's own choice) to see they did not move.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe108.txt
run() { local sz=$1 tr=$2 b=$3; shift 3; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 200 build-gpu/clgemm --device nvidia --trans $tr --size $sz --batch $b --iters 100 --format json "${a[@]}" 2>>$OUT/probe108.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("gflops"), r.get("vs_clblast"), r.get("note","")[:150], flush=True)' "$sz $tr $b" || echo "$sz $tr $b : no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
git rev-parse --short HEAD 2>/dev/null; cat .gpu/commit
for job in "128x128x64 512" "512x512x64 64" "1024x1024x64 16" "768x768x64 32"; do set -- $job
  for tr in NN NT TN TT; do run $1 $tr $2 auto; done
done
for job in "2048x2048x64 8" "2048x2048x2048 4"; do set -- $job
  for tr in NN NT; do run $1 $tr $2 auto; done
done
python3 bench/cublas.py fp32:128x128x64:b512:r100 fp32:128x128x64:NT:b512:r100 fp32:128x128x64:TN:b512:r100 fp32:128x128x64:TT:b512:r100 \
  fp32:512x512x64:b64:r100 fp32:512x512x64:NT:b64:r100 fp32:512x512x64:TN:b64:r100 fp32:512x512x64:TT:b64:r100 \
  fp32:1024x1024x64:NT:b16:r100 2>&1 >/dev/null | grep '^cublas'
} > $P 2>&1
tail -3 $P
