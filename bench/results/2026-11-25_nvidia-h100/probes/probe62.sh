#!/usr/bin/env bash
# Probe 62: step 10's one-launch split with its partial products laid out as the accumulators
# are (16-byte accesses, a slice's loads all in flight before its adds) against HEAD's C-shaped
# layout (.gpu/old.tar.gz, git archive of 43e90fd), interleaved; then the splits and tiles the
# slow sum hid: 16-bit at M = 128 and 16, TF32 at M = 128 and 16, NT, the Llama widths.
source .gpu/setup.sh
T0=$(date +%s)
(meson setup build-gpu --buildtype=release >/dev/null && meson compile -C build-gpu) > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
mkdir -p /tmp/old && tar -C /tmp/old -xzf .gpu/old.tar.gz && cp -r .gpu /tmp/old/ &&
(cd /tmp/old && meson setup build-gpu --buildtype=release >/dev/null && meson compile -C build-gpu) > $OUT/build_old.log 2>&1 || { echo "old build failed"; tail -30 $OUT/build_old.log; }
P=$OUT/probe62.txt
run() { local bin=$1 tag=$2 dt=$3 sz=$4; shift 4; local a=(); for x in "$@"; do a+=(--algo "$x"); done
  local o=(); [ $dt != f32 ] && o=(--out $dt)
  timeout 300 $bin --device nvidia --no-baseline --dtype $dt "${o[@]}" --trans NT --size $sz --iters 100 --format json "${a[@]}" 2>>$OUT/probe62.err | python3 -c '
import json,sys
for r in json.load(sys.stdin)["results"][0]["rows"]:
    print(*sys.argv[1:], r["algorithm"], r["status"], r.get("ms_median"), r.get("ms_min"), (r.get("note") or "")[:70], flush=True)' $tag $dt $sz; }
NEW=build-gpu/clgemm OLD=/tmp/old/build-gpu/clgemm
R="wgmma_tma:BM=64,BN=128,WGN=128,STAGES=8,SWAP=1,INFLIGHT=1"
R128="wgmma_tma:BM=128,BN=128,WGN=128,STAGES=6,SWAP=1,INFLIGHT=1"
T="wgmma_tma:BM=128,BN=128,WGN=128,STAGES=6,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1"
T64="wgmma_tma:BM=64,BN=128,WGN=128,STAGES=8,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1"
T16="wgmma_tma:BM=128,BN=16,WGN=16,STAGES=11,SWAP=1,PACKA=3,PACKB=2,ROUNDER=1"
S16="wgmma_tma:BM=64,BN=16,WGN=16,STAGES=16,SWAP=1,INFLIGHT=1"
S16B="wgmma_tma:BM=128,BN=16,WGN=16,STAGES=12,SWAP=1,INFLIGHT=1"
{
# (a) old against new, interleaved: the rules (tensor_core) where they split, and fixed splits
for rep in 1 2; do for tree in old new; do bin=$NEW; [ $tree = old ] && bin=$OLD
  run $bin a$rep-$tree f16 128x4096x4096 "$R,SPLITK=2" "$R128,SPLITK=3"
  run $bin a$rep-$tree f32 128x4096x4096 tensor_core "$T,SPLITK=4"
  run $bin a$rep-$tree f32 16x4096x4096 tensor_core
  run $bin a$rep-$tree f32 128x6144x4096 tensor_core
done; done
echo "a done at $(( $(date +%s) - T0 )) s"
# (b) the new split's landscape
for rep in 1 2; do
  for dt in f16 bf16; do
    for sz in 128x4096x4096 128x6144x4096 128x4096x14336 128x28672x4096; do
      a=(tensor_core)
      for s in 1 2 3; do a+=("$R,SPLITK=$s"); done
      for s in 1 2 3 4; do a+=("$R128,SPLITK=$s"); done
      run $NEW b$rep $dt $sz "${a[@]}"
    done
    for sz in 16x4096x4096 16x6144x4096 16x4096x14336 16x28672x4096; do
      a=(tensor_core)
      for s in 1 2 3 4; do a+=("$S16,SPLITK=$s" "$S16B,SPLITK=$s"); done
      run $NEW b$rep $dt $sz "${a[@]}"
    done
  done
  for sz in 128x4096x4096 128x6144x4096 128x4096x14336 128x28672x4096; do
    a=(tensor_core)
    for s in 1 2 3 4 6; do a+=("$T,SPLITK=$s"); done
    for s in 1 2 3 4; do a+=("$T64,SPLITK=$s"); done
    run $NEW b$rep f32 $sz "${a[@]}"
  done
  for sz in 16x4096x4096 16x6144x4096 16x4096x14336 16x28672x4096; do
    a=(tensor_core)
    for s in 1 2 3 4 6 8; do a+=("$T16,SPLITK=$s"); done
    run $NEW b$rep f32 $sz "${a[@]}"
  done
done
echo "b done at $(( $(date +%s) - T0 )) s"
} > $P 2>&1
J=""
for sz in 128x4096x4096 128x6144x4096 128x4096x14336 128x28672x4096 16x4096x4096 16x6144x4096 16x4096x14336 16x28672x4096; do J="$J tf32:$sz:NT:r100 f16:$sz:NT:r100 bf16:$sz:NT:r100"; done
python3 bench/cublas.py $J > $OUT/cublas62.json 2>>$OUT/probe62.err
echo "all done at $(( $(date +%s) - T0 )) s" >> $P
tail -3 $P
