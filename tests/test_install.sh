#!/usr/bin/env bash
# meson install into a scratch root, then build tools/example_sgemm.c and
# examples/linear_bf16_gelu.c against the installed library through pkg-config alone and run
# them on PoCL.
#   usage: test_install.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 src=$2
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
meson install -C "$build" --destdir "$root" --no-rebuild >/dev/null
pc=$(find "$root" -name clgemm.pc | head -1)
[ -n "$pc" ] || { echo "FAIL: no clgemm.pc installed"; exit 1; }
for f in clgemm.h libclgemm.so clgemm; do
    [ -n "$(find "$root" -name "$f" | head -1)" ] || { echo "FAIL: $f not installed"; exit 1; }
done
export PKG_CONFIG_PATH=$(dirname "$pc") PKG_CONFIG_SYSROOT_DIR=$root
flags=$(pkg-config --cflags --libs clgemm)
echo "pkg-config --cflags --libs clgemm: $flags"
cc -std=c11 -Wall -Wextra -Werror "$src/tools/example_sgemm.c" $flags -lm -o "$root/example_sgemm"
libdir=$(dirname "$(find "$root" -name libclgemm.so | head -1)")
LD_LIBRARY_PATH=$libdir "$root/example_sgemm" pocl 123 77 45
LD_LIBRARY_PATH=$libdir "$root/example_sgemm" pocl 64 64 64
# The descriptor call with a 16-bit C and a fused epilogue: a bf16 linear layer with GELU, on
# the matrix units' emulation (PoCL has none).
cc -std=c11 -Wall -Wextra -Werror "$src/examples/linear_bf16_gelu.c" $flags -lm \
    -o "$root/linear_bf16_gelu"
LD_LIBRARY_PATH=$libdir CLGEMM_EMULATE_MATRIX=1 "$root/linear_bf16_gelu" pocl 67 45 38
echo "ok: installed library, header and pkg-config file build and run the examples"
