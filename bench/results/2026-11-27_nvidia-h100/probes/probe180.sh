#!/usr/bin/env bash
# Probe 180: TF32 N T at 128 < M <= 512: the shipped rule (unsplit) against the same rule split
# by rounds with the partial products' traffic (a user tuning file, probe180_tf32_m512.json);
# what each chose.
source .gpu/setup.sh
[ -x build-gpu/clgemm ] && (meson compile -C build-gpu > /tmp/b.log 2>&1) || { rm -rf build-gpu; (meson setup build-gpu --buildtype=release && meson compile -C build-gpu) > /tmp/b.log 2>&1 || { tail -20 /tmp/b.log; exit 1; }; }
P=$OUT/probe180.txt
one() { printf '%s %s ' $1 $2
  timeout 60 build-gpu/clgemm --device nvidia --no-baseline --format json -q --iters 30 --trans NT --size $2 --algo tensor_core 2>/dev/null | python3 -c '
import json,sys; r=json.load(sys.stdin)["results"][0]["rows"][0]; print(r["status"], r["ms_median"], r["ms_min"], "|", r.get("note","")[5:110])' || echo "no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat .gpu/commit; date -u
for cfg in shipped split; do
  if [ $cfg = split ]; then export CLGEMM_TUNING_FILE=$PWD/bench/results/2026-11-27_nvidia-h100/probes/probe180_tf32_m512.json; else unset CLGEMM_TUNING_FILE; fi
  for sz in 256x4096x4096 512x4096x4096 512x6144x4096 300x5120x5120 384x28672x4096 200x3000x1000 160x8192x8192 448x11008x4096; do one $cfg $sz; done
done
python3 bench/cublas.py tf32:200x3000x1000:NT tf32:160x8192x8192:NT tf32:448x11008x4096:NT 2>&1 | grep cublas
} > $P 2>&1
cat $P
