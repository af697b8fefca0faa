#!/usr/bin/env bash
# Probe 302 (H200): f240b19 against its parent (probe302.patch reversed, built beside it),
# interleaved, verified: a strided batch whose operands must be copied (tight rows of 63
# values: off 16 bytes) ran as a loop of copy + GEMM per problem; now one copy launch per
# operand and one GEMM launch.  bf16 and fp32 (auto), attention-sized batches.
source bench/probes/probe.sh probe302
export PROBE_TIMEOUT=150
rm -rf /tmp/old && mkdir /tmp/old && tar --exclude=./build --exclude=./build-gpu --exclude=./.gpu -cf - . | tar -C /tmp/old -xf -
(cd /tmp/old && patch -s -R -p1 < "$OLDPWD/.gpu/probe302.patch" &&
 meson setup b --buildtype=release && meson compile -C b clgemm:executable) > $OUT/build-old.log 2>&1 || { tail $OUT/build-old.log; exit 1; }
run2() { # TAG ARGS: the new build, then the old
    local tag=$1; shift
    probe_run "$tag new" "$@"
    CLGEMM_BUILD_OPTIONS= timeout 150 /tmp/old/b/clgemm --device nvidia --no-baseline --format json -q "$@" \
        2>>$OUT/probe302.err | probe_show "$tag old"
}
{
probe_header
for r in 1 2; do
  for c in 64:512x512x63 512:128x128x63; do
    b=${c%%:*}; s=${c#*:}
    run2 "r$r bf16 b$b $s pad0" --size $s --batch $b --ld-pad 0 --dtype bf16 --out bf16 --iters 20 --algo tensor_core
    run2 "r$r f32 b$b $s pad0" --size $s --batch $b --ld-pad 0 --iters 20 --algo auto
    probe_run "r$r bf16 b$b $s default" --size $s --batch $b --dtype bf16 --out bf16 --iters 20 --algo tensor_core
  done
done
} > $P 2>&1
cat $P
