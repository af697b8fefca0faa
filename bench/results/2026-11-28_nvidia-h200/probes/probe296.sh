#!/usr/bin/env bash
# Probe 296 (H200): 4847dde against the tree before it (d19a075: probe296.patch reversed, built
# beside it), interleaved, verified: step 10 with rows 16 bytes off 32 (bf16/f16 --ld-pad 8,
# TF32 --ld-pad 4) now copies its B first; packed rows now lie on 32 bytes (tight
# 1000x3000x777).  cuBLAS (PyTorch) at the aligned shapes in the same command.
source bench/probes/probe.sh probe296
export PROBE_TIMEOUT=150
rm -rf /tmp/old && mkdir /tmp/old && tar --exclude=./build --exclude=./build-gpu --exclude=./.gpu -cf - . | tar -C /tmp/old -xf -
(cd /tmp/old && patch -s -R -p1 < "$OLDPWD/.gpu/probe296.patch" &&
 meson setup b --buildtype=release && meson compile -C b) > $OUT/build-old.log 2>&1 || { tail $OUT/build-old.log; exit 1; }
run2() { # TAG ARGS: the new build, then the old
    local tag=$1; shift
    probe_run "$tag new" "$@"
    CLGEMM_BUILD_OPTIONS= timeout 150 /tmp/old/b/clgemm --device nvidia --no-baseline --format json -q "$@" \
        2>>$OUT/probe296.err | probe_show "$tag old"
}
B16=(--iters 30 --algo tensor_core)
{
probe_header
for r in 1 2; do
  for d in bf16 f16; do
    for t in NN NT; do
      probe_run "r$r $d $t 4096 pad0" --size 4096 --trans $t --ld-pad 0 --dtype $d --out $d "${B16[@]}"
      run2 "r$r $d $t 4096 pad8" --size 4096 --trans $t --ld-pad 8 --dtype $d --out $d "${B16[@]}"
    done
    probe_run "r$r $d 1000x3000x777 default" --size 1000x3000x777 --dtype $d --out $d "${B16[@]}"
    run2 "r$r $d 1000x3000x777 pad0" --size 1000x3000x777 --ld-pad 0 --dtype $d --out $d "${B16[@]}"
  done
  for s in 128x6144x4096 128x28672x4096; do
    probe_run "r$r bf16 NT $s pad0" --size $s --trans NT --ld-pad 0 --dtype bf16 --out bf16 "${B16[@]}"
    run2 "r$r bf16 NT $s pad8" --size $s --trans NT --ld-pad 8 --dtype bf16 --out bf16 "${B16[@]}"
    probe_run "r$r tf32 NT $s pad0" --size $s --trans NT --ld-pad 0 "${B16[@]}"
    run2 "r$r tf32 NT $s pad4" --size $s --trans NT --ld-pad 4 "${B16[@]}"
  done
  probe_run "r$r tf32 1000x3000x777 default" --size 1000x3000x777 "${B16[@]}"
  run2 "r$r tf32 1000x3000x777 pad0" --size 1000x3000x777 --ld-pad 0 "${B16[@]}"
  run2 "r$r f32 auto 1000x3000x777 pad0" --size 1000x3000x777 --ld-pad 0 --iters 30 --algo auto
  run2 "r$r f32 auto 4095 pad0" --size 4095 --ld-pad 0 --iters 30 --algo auto
done
echo "cuBLAS (PyTorch, bench/cublas.py), ms median (min)"
python3 bench/cublas.py bf16:4096 bf16:4096:NT f16:4096 f16:4096:NT bf16:1000x3000x777 f16:1000x3000x777 \
  bf16:128x6144x4096:NT bf16:128x28672x4096:NT tf32:128x6144x4096:NT tf32:128x28672x4096:NT \
  tf32:1000x3000x777 fp32:1000x3000x777 fp32:4095 2>&1 >/dev/null | grep '^cublas:'
} > $P 2>&1
cat $P
