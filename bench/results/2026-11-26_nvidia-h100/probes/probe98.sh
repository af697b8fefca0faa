#!/usr/bin/env bash
# Probe 98: fp32 auto at 100x3000x777 NN ran 0.116 ms in probe97 where probe84 (549092d) had
# 0.051: HEAD against 549092d in one command, NN and NT, with forced splits of step 7.
source .gpu/setup.sh
P=$OUT/probe98.txt
mkdir -p /tmp/old && tar xzf .gpu/old.tar.gz -C /tmp/old
(cd /tmp/old && meson setup build --buildtype=release >/dev/null && meson compile -C build >/dev/null) || echo "old build failed"
run() { local bin=$1 tag=$2 sz=$3 tr=$4; shift 4; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  timeout 100 $bin --device nvidia --no-baseline --trans $tr --size $sz --iters 50 --format json "${a[@]}" 2>>$OUT/probe98.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("params"), flush=True)' $tag $sz $tr || echo "$tag $sz $tr : no JSON"; }
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for round in 1 2; do for t in old new; do bin=build-gpu/clgemm; [ $t = old ] && bin=/tmp/old/build/clgemm
  for tr in NN NT; do run $bin $t 100x3000x777 $tr auto warp_tiled:READT=1,SPLITK=5 warp_tiled:READT=1,SPLITK=6 warp_tiled:SPLITK=6; done
done; done
CLGEMM_SHOW_REASON=1 build-gpu/clgemm --device nvidia --no-baseline --size 100x3000x777 --iters 3 --algo auto 2>&1 | grep -i "chose"
build-gpu/clgemm --device nvidia --no-baseline --size 100x3000x777 --iters 3 --algo auto --trans NT 2>&1 | grep -i "chose"
} > $P 2>&1
tail -2 $P
