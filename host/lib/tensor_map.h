/* Hopper's tensor memory accelerator (TMA) from OpenCL.
 *
 * A TMA copy (PTX cp.async.bulk.tensor) moves a whole box of a 2-D tensor from global to
 * local memory on one instruction of one work-item, applies the swizzle that wgmma's
 * descriptors expect, fills whatever lies outside the tensor with zeros and signals an
 * mbarrier when the bytes have landed.  It needs a 128-byte "tensor map" that describes the
 * tensor; its format is NVIDIA's and undocumented, so it is made by the CUDA driver's
 * cuTensorMapEncodeTiled, looked up at run time in libcuda.so.1 (which NVIDIA's OpenCL
 * driver itself runs on).  Nothing here links against CUDA: where libcuda is missing the
 * TMA path is "unsupported on this device" and everything else runs.
 *
 * The map needs the tensor's device address, which OpenCL does not give the host: the host
 * encodes the map with a placeholder address and a one-work-item kernel puts the real one in
 * on the device (PTX tensormap.replace, see cl/tma.h), so no host round trip is needed. */
#ifndef CLGEMM_TENSOR_MAP_H
#define CLGEMM_TENSOR_MAP_H

#include <stdint.h>

#include "clerr.h"

typedef struct tensor_map {
    _Alignas(64) uint64_t words[16];
} tensor_map;

/* A row-major matrix of rows x cols elements of elem_bytes (2 or 4), ld elements between
 * rows, read as boxes of box_rows x box_cols, swizzled for wgmma (swizzle_bytes 0, 32, 64 or
 * 128; a box row may not be wider than the swizzle span).  depth > 0: a strided batch of
 * `depth` such matrices, `stride` elements apart, as a 3-D map (the problem is the third
 * coordinate, boxes one matrix deep); 0: one matrix, a 2-D map. */
typedef struct tensor_map_shape {
    int elem_bytes;
    uint64_t rows, cols, ld;
    uint32_t box_rows, box_cols;
    int swizzle_bytes;
    uint64_t depth, stride;
} tensor_map_shape;

/* The placeholder address the host encodes; the device replaces it. */
#define TENSOR_MAP_PLACEHOLDER_ADDRESS 0x10000ull

/* Pure checks of a shape against the TMA's documented limits (unit-tested).  0 or -1 with
 * the reason in e. */
int tensor_map_check_shape(const tensor_map_shape *s, errbuf *e);

/* Encodes a map through libcuda.  -1 with the reason in e when libcuda or its encoder is
 * missing or refuses the shape. */
int tensor_map_encode(tensor_map *out, uint64_t address, const tensor_map_shape *s, errbuf *e);

/* Whether libcuda's encoder can be loaded here (cached after the first call). */
int tensor_map_available(errbuf *e);

#endif
