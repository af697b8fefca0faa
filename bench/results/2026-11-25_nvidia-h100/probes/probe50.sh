#!/usr/bin/env bash
# Probe 50: NVIDIA's SASS of step 7 as its OpenCL compiler left the PTX (probe48's cache):
# plain (NN), READT=1, and probe48's tc variant, assembled by triton's ptxas for sm_90 and
# disassembled, to compare the main loops.
TD=$(python3 -c "import triton, os; print(os.path.dirname(triton.__file__))")/backends/nvidia/bin
mkdir -p $OUT/sass
for p in plain readt1 tc; do
  sed -i "s/^.version 9.0/.version 8.7/" .gpu/sass/$p.ptx
  $TD/ptxas -arch=sm_90 -O3 -v -o /tmp/$p.cubin .gpu/sass/$p.ptx > $OUT/sass/$p.ptxas.txt 2>&1
  $TD/cuobjdump -sass /tmp/$p.cubin > $OUT/sass/$p.sass 2>&1
  wc -l $OUT/sass/$p.sass; cat $OUT/sass/$p.ptxas.txt | tail -2
done
