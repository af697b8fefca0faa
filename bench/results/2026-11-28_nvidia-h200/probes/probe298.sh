#!/usr/bin/env bash
# Probe 298 (H200): db593ee against its parent (e21c733: probe298.patch reversed, built beside
# it), interleaved, verified: TF32's registers form (PACKA=3, SETMAXNREG) now rounds A in its
# copy (PACKA=1) where A must be copied anyway, rows off 16 bytes.  Tight (--ld-pad 0) 4095^3
# in every transpose and both layouts, 1000x3000x777 (swapped: B is the kernel's A), against
# the padded runs (unchanged), tf32x3 (unchanged); CLBlast and cuBLAS in the same command.
source bench/probes/probe.sh probe298
export PROBE_TIMEOUT=150
rm -rf /tmp/old && mkdir /tmp/old && tar --exclude=./build --exclude=./build-gpu --exclude=./.gpu -cf - . | tar -C /tmp/old -xf -
(cd /tmp/old && patch -s -R -p1 < "$OLDPWD/.gpu/probe298.patch" &&
 meson setup b --buildtype=release && meson compile -C b clgemm:executable) > $OUT/build-old.log 2>&1 || { tail $OUT/build-old.log; exit 1; }
run2() { # TAG ARGS: the new build, then the old
    local tag=$1; shift
    probe_run "$tag new" "$@"
    CLGEMM_BUILD_OPTIONS= timeout 150 /tmp/old/b/clgemm --device nvidia --no-baseline --format json -q "$@" \
        2>>$OUT/probe298.err | probe_show "$tag old"
}
{
probe_header
for r in 1 2; do
  for l in row col; do
    for t in NN NT TN TT; do
      run2 "r$r tf32 $l $t 4095 pad0" --size 4095 --layout $l --trans $t --ld-pad 0 --iters 20 --algo tensor_core
    done
  done
  run2 "r$r tf32 4095 default" --size 4095 --iters 20 --algo tensor_core
  run2 "r$r tf32 4096 pad4" --size 4096 --ld-pad 4 --iters 20 --algo tensor_core
  run2 "r$r tf32 1000x3000x777 pad0" --size 1000x3000x777 --ld-pad 0 --iters 50 --algo tensor_core
  run2 "r$r tf32 1000x3000x777 default" --size 1000x3000x777 --iters 50 --algo tensor_core
  run2 "r$r tf32x3 4095 pad0" --size 4095 --ld-pad 0 --iters 20 --algo tensor_core_tf32x3
done
probe_run "clblast 4095 pad0" --size 4095 --ld-pad 0 --iters 5 --algo clblast
echo "cuBLAS (PyTorch, bench/cublas.py)"
python3 bench/cublas.py tf32:4095 tf32:4096 tf32:1000x3000x777 2>&1 >/dev/null | grep '^cublas:'
} > $P 2>&1
cat $P
