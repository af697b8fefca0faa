"""The presets of bench/run.py: which clgemm processes each runs (Case), and the cuBLAS calls
that go beside them.  bench/run.py's doc says what each preset measures."""

STEPS = ['naive', 'coalescing', 'tiled', 'tiled_register', 'block_tiled',
         'block_tiled_vectorized', 'warp_tiled']
SIZES = ['256', '512', '1024', '2048', '4096', '8192', '1000', '3000', '4095', '1000x3000x777']


class Case:
    """One clgemm process: a file name, a size (None: clgemm's default), a data type, the
    algorithms (none: every one), and the cuBLAS modes that go beside it."""

    def __init__(self, name, size, algos, dtype=None, cublas=('fp32',), flags=(), trans='NN',
                 batch=1, iters=None, cold=False):
        self.name, self.size, self.algos, self.dtype, self.cublas = \
            name, size, algos, dtype, cublas
        # layouts preset: clgemm's own flags, and what cuBLAS runs beside them
        self.flags, self.trans, self.batch = list(flags), trans, batch
        # llama preset: timed runs on both sides (None: each side's default), and --cold-l2
        self.iters, self.cold = iters, cold

    def command(self, args):
        cmd = [args.clgemm, '--format', 'json']
        if args.device:
            cmd += ['--device', args.device]
        if self.size:
            cmd += ['--size', self.size]
        if self.dtype:
            cmd += ['--dtype', self.dtype]
        for a in self.algos:
            cmd += ['--algo', a]
        if args.iters or self.iters:
            cmd += ['--iters', str(args.iters or self.iters)]
        if self.cold:
            cmd += ['--cold-l2']
        return cmd + self.flags + args.extra


def preset_cases(preset, sizes=None):
    """The cases of one preset; `sizes` replaces its default sizes."""
    def each(default, make):
        return [make(s) for s in (sizes or default)]
    if preset == 'quick':
        # The quick-start job itself: no --algo, the size clgemm picks for the device.
        return each([None], lambda s: Case('quick_' + s if s else 'quick', s, [],
                                           cublas=('fp32', 'tf32')))
    if preset == 'progression':
        return each(['1024', '4096'], lambda s: Case('f32_' + s, s, STEPS + ['auto']))
    if preset == 'tensor':
        f32 = ['tensor_core', 'tensor_core_tf32x3', 'mma', 'wgmma_tma', 'wgmma_tma:PACKA=0',
               'warp_tiled']
        b16 = ['tensor_core', 'mma', 'wgmma', 'wgmma_tma']
        out = []
        for s in sizes or ['4096', '8192']:
            out += [Case('f32_' + s, s, f32, cublas=('fp32', 'tf32')),
                    Case('f16_' + s, s, b16, dtype='f16', cublas=('f16',)),
                    Case('bf16_' + s, s, b16, dtype='bf16', cublas=('bf16',))]
        return out
    if preset == 'layouts':
        # Every transpose and both layouts at 4096 and 8192 (fp32 auto, TF32, f16, bf16), as
        # issue #16 asks; tight leading dimensions at odd sizes; attention-sized batches.
        out = []
        for s in sizes or ['4096', '8192']:
            for layout in ('row', 'col'):
                for t in ('NN', 'NT', 'TN', 'TT'):
                    flags = ['--layout', layout, '--trans', t]
                    tag = '%s_%s_%s' % (layout, t, s)
                    out.append(Case('f32_' + tag, s, ['auto', 'tensor_core'], flags=flags,
                                    cublas=('fp32', 'tf32'), trans=t))
                    out += [Case('%s_%s' % (d, tag), s, ['tensor_core'], dtype=d, flags=flags,
                                 cublas=(d,), trans=t) for d in ('f16', 'bf16')]
        for s in ['4095', '1000x3000x777']:
            for pad in ('0', None):
                flags = ['--ld-pad', pad] if pad else []
                out.append(Case('f32_%s_ldpad%s' % (s, pad or 'default'), s,
                                ['auto', 'tensor_core'], flags=flags, cublas=('fp32', 'tf32')))
                # 16-bit operands at a row stride TMA cannot read are copied first
                out += [Case('%s_%s_ldpad%s' % (d, s, pad or 'default'), s, ['tensor_core'],
                             dtype=d, flags=flags, cublas=(d,)) for d in ('f16', 'bf16')]
        # N N, and N T as attention's Q K^T (K stored as Q is, one row per token)
        for t in ('NN', 'NT'):
            for b, s in (('64', '512x512x64'), ('512', '128x128x64')):
                tr = ['--trans', t] if t != 'NN' else []
                tag = '' if t == 'NN' else t + '_'
                out += [Case('f32_batch%s_%s%s' % (b, tag, s), s, ['auto', 'tensor_core'],
                             flags=['--batch', b] + tr, cublas=('fp32', 'tf32'), batch=int(b),
                             trans=t),
                        # C in the data's type, as bmm's: at K = 64 storing C is most of the
                        # traffic
                        *[Case('%s_batch%s_%s%s' % (d, b, tag, s), s, ['tensor_core'], dtype=d,
                               flags=['--batch', b, '--out', d] + tr, cublas=(d,),
                               batch=int(b), trans=t)
                          for d in ('f16', 'bf16')]]
        return out
    if preset == 'llama':
        return llama_cases(sizes)
    if preset == 'epilogues':
        # The fused store's cost: the same GEMM plain, with bias + GELU, and with a 16-bit C.
        out = []
        for s in sizes or ['4096']:
            for tag, flags in (('plain', []), ('bias_gelu', ['--epilogue', 'bias_gelu']),
                               ('out_bf16', ['--out', 'bf16']), ('out_f16', ['--out', 'f16'])):
                out.append(Case('f32_%s_%s' % (tag, s), s, ['auto', 'tensor_core'], flags=flags,
                                cublas=('fp32', 'tf32') if tag == 'plain' else ()))
            for tag, flags in (('plain', []), ('bias_gelu', ['--epilogue', 'bias_gelu']),
                               ('out_bf16', ['--out', 'bf16']),
                               ('out_bf16_bias_gelu', ['--out', 'bf16', '--epilogue',
                                                       'bias_gelu'])):
                out.append(Case('bf16_%s_%s' % (tag, s), s, ['tensor_core'], dtype='bf16',
                                flags=flags, cublas=('bf16',) if tag == 'plain' else ()))
        return out
    if preset == 'sizes':
        return each(SIZES, lambda s: Case('f32_' + s, s,
                                          ['block_tiled', 'block_tiled_vectorized',
                                           'warp_tiled', 'auto']))
    raise KeyError(preset)


# Llama-3-8B's projections, (N, K) of W in a PyTorch Linear (W stored N x K): QKV, O,
# gate+up, down; and the tokens M of one decode step, a small batch, a prefill chunk.
LLAMA_NK = ['6144x4096', '4096x4096', '28672x4096', '4096x14336']
LLAMA_M = ['1', '16', '128', '4096']
COLD_MAX_M = 16  # below this the weight dominates the traffic: the L2 decides the figure


def llama_cases(sizes=None):
    """Per shape one process per data type (fp32 data: auto, TF32 and tf32x3 beside CLBlast;
    f16 and bf16: tensor_core alone, as CLBlast has no 16-bit path to compare), warm; at
    M <= COLD_MAX_M the same again with --cold-l2.  Timed runs: 100 where a run takes
    microseconds, 20 (the least the issue accepts) at M = 4096, the same for cuBLAS."""
    out = []
    for size in sizes or [m + 'x' + nk for nk in LLAMA_NK for m in LLAMA_M]:
        m = int(size.split('x')[0])
        iters = 100 if m <= 128 else 20
        for cold in (False, True) if m <= COLD_MAX_M else (False,):
            tail = '_cold' if cold else ''
            out += [Case('f32_%s%s' % (size, tail), size,
                         ['auto', 'tensor_core', 'tensor_core_tf32x3'], cublas=('fp32', 'tf32'),
                         flags=['--trans', 'NT'] + (['--no-baseline'] if cold else []),
                         trans='NT', iters=iters, cold=cold)]
            # 16-bit data stores a 16-bit C, as a PyTorch Linear (and cuBLAS beside it) does
            out += [Case('%s_%s%s' % (d, size, tail), size, ['tensor_core'], dtype=d,
                         cublas=(d,), flags=['--trans', 'NT', '--out', d, '--no-baseline'],
                         trans='NT', iters=iters, cold=cold) for d in ('f16', 'bf16')]
    return out


PRESETS = {'quick': ['quick'], 'progression': ['progression'], 'tensor': ['tensor'],
           'sizes': ['sizes'], 'layouts': ['layouts'], 'epilogues': ['epilogues'],
           'readme': ['quick', 'progression', 'tensor', 'layouts', 'epilogues'],
           'llama': ['llama']}
