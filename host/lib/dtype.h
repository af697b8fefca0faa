/* 16-bit storage formats: float <-> f16 and bf16 bit patterns, and their names.  Pure C, no
 * OpenCL calls, so it is unit-tested bit for bit (tests/test_unit.c). */
#ifndef CLGEMM_DTYPE_H
#define CLGEMM_DTYPE_H

#include <stdint.h>

/* Round to nearest, ties to even.  Overflow gives +-inf; NaN gives a quiet NaN of the same
 * sign (its payload's top bits kept). */
uint16_t f32_to_f16_bits(float x);
uint16_t f32_to_bf16_bits(float x);
/* Exact: every f16 and bf16 value is a float. */
float f16_bits_to_f32(uint16_t h);
float bf16_bits_to_f32(uint16_t h);

#endif
