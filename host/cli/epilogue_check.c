#include "epilogue_check.h"

#include <math.h>
#include <string.h>

bool epilogue_active(const c_epilogue *x)
{
    return x && (x->epilogue != CLGEMM_EPILOGUE_NONE || x->c_type != CLGEMM_F32);
}

double epilogue_act(clgemm_epilogue epilogue, double x)
{
    switch (epilogue / 2) {
    case 1: /* relu; x < 0 keeps a NaN, as the kernels do */
        return x < 0.0 ? 0.0 : x;
    case 2: /* gelu, tanh form; sqrt(2 / pi) */
        return 0.5 * x * (1.0 + tanh(0.79788456080286536 * (x + 0.044715 * x * x * x)));
    }
    return x;
}

double epilogue_apply(const c_epilogue *x, int j, double p, double *bias_mag)
{
    double b = 0.0;
    if (x && (x->epilogue & 1) && x->bias)
        b = x->bias[j];
    *bias_mag = fabs(b);
    return x ? epilogue_act(x->epilogue, p + b) : p;
}

double epilogue_tolerance(clgemm_epilogue epilogue, double tolerance)
{
    if (epilogue == CLGEMM_EPILOGUE_NONE)
        return tolerance;
    /* max |gelu'| = 1.12899 (at x = 1.4185); the rest, docs/precision.md. */
    const double lipschitz = epilogue / 2 == 2 ? 1.13 : 1.0;
    const double eta = epilogue / 2 == 2 ? 0x1.0p-20 : 0.0;
    return lipschitz * (tolerance + 0x1.0p-23) + eta;
}

void epilogue_rounding(clgemm_dtype c_type, double *rel, double *abs_part)
{
    *rel = c_type == CLGEMM_F16 ? 0x1.0p-11 : c_type == CLGEMM_BF16 ? 0x1.0p-8 : 0.0;
    *abs_part = c_type == CLGEMM_F16 ? 0x1.0p-25 : c_type == CLGEMM_BF16 ? 0x1.0p-134 : 0.0;
}

int epilogue_parse(const char *text, clgemm_epilogue *out)
{
    for (int i = CLGEMM_EPILOGUE_NONE; i <= CLGEMM_EPILOGUE_BIAS_GELU; i++)
        if (text && strcmp(text, clgemm_epilogue_name((clgemm_epilogue)i)) == 0) {
            *out = (clgemm_epilogue)i;
            return 0;
        }
    return -1;
}
