"""The rounds model of a split of K, as the library prices it (shape_rule_split_cost in
host/lib/shape_rule.c), and its fit to measured splits: which split a rule's constants
(split_slice_k, split_partial_k, groups_per_cu, split_rest) name among those timed, and the
constants that name the fastest.  Used by tools/tune_rules.py (a rule's split) and
tools/split_audit.py (a rule's split checked on shapes the fit did not see)."""
import math

# Splits that sum their slices in their own launch (the registry's split_in_launch): steps 10
# and 11.  Others add a second launch for a rest of K that S slices do not cut evenly.
SPLIT_IN_LAUNCH = ('wgmma_tma', 'skinny')
# What that second launch costs in rounds (SPLIT_UNEVEN_ROUNDS, host/lib/shape_rule.c).
SPLIT_UNEVEN_ROUNDS = 0.4


def rounds_choice(runs, K, cus, slice_k, partial_k=0, in_launch=False, groups=1,
                  rest=SPLIT_UNEVEN_ROUNDS):
    """The split shape_rule_split's rounds model picks among those measured (runs: {S: (ms,
    blocks of C unsplit)}): the fewest rounds of blocks per unit for the work, ceil(blocks x S /
    units) / S with units = cus x groups (the groups one CU runs at once, groups_per_cu), each
    slice costing slice_k more values of K, a split's partial products (2S + 1) x blocks x
    partial_k / (units x K) more, and outside one launch (in_launch False) rest (the rule's
    split_rest, default SPLIT_UNEVEN_ROUNDS) more where S slices of 8-value multiples leave a
    rest of K: the twin of shape_rule_split_cost (host/lib/shape_rule.c)."""
    units = cus * groups

    def cost(S):
        blocks = runs[S][1]
        partials = (2 * S + 1) * blocks * partial_k / (units * K) if S > 1 else 0.0
        left = not in_launch and S > 1 and K % (8 * S) != 0
        return (math.ceil(blocks * S / units) / S * (1 + S * slice_k / K) + partials +
                (rest if left else 0.0))
    return min(sorted(runs), key=cost)


# The fit's grid: partial_k finely where the step 7 rules sit (72), coarsely up to what step
# 11's 16-bit M = 1 rule needed (1000, probe281); groups per CU up to 4.
FIT_PARTIAL_K = list(range(0, 161, 8)) + list(range(192, 1025, 32))
FIT_GROUPS = (1, 2, 3, 4)
# A rest of K's cost (split_rest), tried only for kernels split over two launches; the first
# is the default, which a fit keeps where it loses no more than another.
FIT_REST = (SPLIT_UNEVEN_ROUNDS, 0.2, 0.1, 0.05, 0.0)


def fit_split_model(per_shape, shapes, cus, in_launch=False):
    """(split_slice_k, split_partial_k, groups_per_cu, split_rest) for the winner, or
    (0, 0, 1, SPLIT_UNEVEN_ROUNDS): the model (slice_k of 0 .. 512, partial_k of 0 .. 1024,
    groups of 1 .. 4, and for a kernel split over two launches a rest of K's cost from
    FIT_REST) whose choice of split at the measured shapes loses least against the fastest
    split there; among those that lose least, the fewest groups, the default rest where it
    is one of them (else the dearest), the smallest partial_k, and slice_k the middle of the
    best stretch; none where even the best loses more than 2% on average (a kernel whose time
    is not its rounds of blocks, such as one bound by memory, keeps split_per_cu).  Counting
    rounds as several groups per CU is what step 11's small-M rules needed (probes 278-282:
    with one, no slice_k and partial_k came near)."""
    losses = {}
    fastest = [min(t for t, _ in runs.values()) for runs in per_shape]
    for R in (FIT_REST[:1] if in_launch else FIT_REST):
        for G in FIT_GROUPS:
            for P in FIT_PARTIAL_K:
                for L in range(0, 513, 16):
                    loss = 0.0
                    for runs, (N, K), best in zip(per_shape, shapes, fastest):
                        named = rounds_choice(runs, K, cus, L, P, in_launch, G, R)
                        loss += math.log(runs[named][0] / best)
                    losses[(G, R, L, P)] = round(loss, 6)
    best = min(losses.values())
    if best > len(shapes) * math.log(1.02):
        return 0, 0, 1, SPLIT_UNEVEN_ROUNDS
    won = [k for k, loss in losses.items() if loss == best]
    G = min(g for g, _, _, _ in won)
    rests = {r for g, r, _, _ in won if g == G}
    R = SPLIT_UNEVEN_ROUNDS if SPLIT_UNEVEN_ROUNDS in rests else max(rests)
    P = min(p for g, r, _, p in won if (g, r) == (G, R))
    tied = sorted(L for g, r, L, p in won if (g, r, p) == (G, R, P))
    return max(8, tied[len(tied) // 2]), P, G, R
