"""One prefill pass over a token sequence: per-token log-probabilities, memory bounded.

Does: run llama.cpp's forward pass (no decode, no sampling) over long inputs in windows that
overlap by `overlap` tokens of left context, ask llama.cpp for logits only at the rows that are
used, and reduce each micro-batch's logits at once to what is kept: the log-probability of the
actual next token, optionally its top-k alternatives, and "prefix queries" (the probability that
the next bytes start with a given prefix, e.g. a newline). Nothing of size n_tokens x n_vocab
is ever held.
Does not: tokenize, know about characters, or decide anything.

Row convention: the prediction for token j comes from the logits of the row holding token
j-1 (or BOS for j == 0). A model without BOS gives no prediction for the first token.
"""

import time
from dataclasses import dataclass, field

import numpy as np

from . import ScorerError

DEFAULT_OVERLAP = 256  # tokens of left context re-decoded at the start of every later window
REDUCE_ROWS = 32  # rows reduced together: bounds the float32 temporaries to 32 x n_vocab


@dataclass
class Prefill:
    logprob: np.ndarray  # float32 (n,): log P(token j | text before j); NaN where not computed
    context: np.ndarray  # int32 (n,): text tokens the prediction for j saw; -1 where none
    top_ids: np.ndarray  # int32 (n, k): the k likeliest tokens at j (k may be 0)
    top_logprob: np.ndarray  # float32 (n, k)
    queries: dict  # (j, prefix bytes) -> log P(the bytes at j start with prefix | text before j)
    stats: dict = field(default_factory=dict)  # windows, decoded and recomputed tokens, seconds


def windows(n: int, size: int, overlap: int, bos: bool):
    """Yield (c, a, b): window decodes tokens [c, b); tokens [a, b) are new, [c, a) context.

    Every window holds at most `size` positions including the BOS slot.
    """
    room = size - (1 if bos else 0)
    if room <= overlap:
        raise ScorerError(f"window of {size} tokens is too small for an overlap of {overlap}")
    a = 0
    while a < n:
        c = max(0, a - overlap)
        b = min(n, c + room)
        yield c, a, b
        a = b


def logsumexp_rows(x: np.ndarray) -> np.ndarray:
    m = x.max(axis=1)
    return m + np.log(np.exp(x - m[:, None]).sum(axis=1))


def prefill(model, ids, *, positions=None, top_k=0, queries=(), overlap=DEFAULT_OVERLAP,
            batch=None) -> Prefill:
    """Score `ids` (token ids of the text, without BOS) with one forward pass per window.

    positions: token indices whose log-probability is wanted (None: all of them).
    queries: iterable of (j, prefix bytes); each answered with log P(next bytes start with prefix).
    The caller holds model.lock.
    """
    lib, ctx = model.lib, model.ctx
    ids = np.asarray(ids, dtype=np.int32)
    n = len(ids)
    batch = batch or model.batch
    bos = model.add_bos
    logprob = np.full(n, np.nan, dtype=np.float32)
    context = np.full(n, -1, dtype=np.int32)
    top_ids = np.zeros((n, top_k), dtype=np.int32)
    top_lp = np.full((n, top_k), np.nan, dtype=np.float32)

    need = np.zeros(n, dtype=bool)
    if positions is None:
        need[:] = True
    else:
        need[np.asarray(list(positions), dtype=np.int64)] = True
    by_pos = {}
    for j, prefix in queries:
        by_pos.setdefault(j, []).append(prefix)
        need[j] = True
    if not bos and n:
        need[0] = False  # nothing precedes the first token
    answers = {}
    stats = {"windows": 0, "decoded": 0, "recomputed": 0, "logit_rows": int(need.sum())}

    started = time.perf_counter()
    handle = lib.llama_batch_init(batch, 0, 1)
    try:
        tok = np.ctypeslib.as_array(handle.token, shape=(batch,))
        pos = np.ctypeslib.as_array(handle.pos, shape=(batch,))
        flag = np.ctypeslib.as_array(handle.logits, shape=(batch,))
        for i in range(batch):
            handle.n_seq_id[i] = 1
            handle.seq_id[i][0] = 0
        memory = lib.llama_get_memory(ctx)
        for c, a, b in windows(n, model.window, overlap, bos):
            wanted = np.flatnonzero(need[a:b]) + a
            if len(wanted) == 0:
                continue  # nothing asked in this window: skip its decode entirely
            lib.llama_memory_clear(memory, True)
            stats["windows"] += 1
            stats["recomputed"] += a - c
            # window positions: [BOS] ids[c:b]; the row of token j-1 predicts token j. The whole
            # window is decoded even past the last wanted row: llama.cpp's numbers depend a little
            # on how a sequence is cut into batches, and both detail levels must agree exactly.
            seq = ids[c:b]
            if bos:
                seq = np.concatenate(([model.bos], seq)).astype(np.int32)
            offset = 1 if bos else 0  # window position of token c
            row_of = {int(j): int(j) - c - 1 + offset for j in wanted}
            predicts = {r: j for j, r in row_of.items()}
            for s in range(0, len(seq), batch):
                e = min(len(seq), s + batch)
                k = e - s
                tok[:k] = seq[s:e]
                pos[:k] = np.arange(s, e, dtype=np.int32)
                flag[:k] = 0
                out_rows = [r for r in range(s, e) if r in predicts]
                for r in out_rows:
                    flag[r - s] = 1
                handle.n_tokens = k
                ret = lib.llama_decode(ctx, handle)
                if ret != 0:
                    raise ScorerError(f"llama.cpp failed to decode a batch (code {ret})")
                stats["decoded"] += k
                if out_rows:
                    js = np.array([predicts[r] for r in out_rows], dtype=np.int64)
                    ptr = lib.llama_get_logits(ctx)
                    block = np.ctypeslib.as_array(ptr, shape=(len(js), model.n_vocab))
                    _reduce(model, block, js, ids, c, logprob, context, top_ids, top_lp,
                            top_k, by_pos, answers)
    finally:
        lib.llama_batch_free(handle)
    stats["seconds"] = time.perf_counter() - started
    return Prefill(logprob, context, top_ids, top_lp, answers, stats)


def _reduce(model, block, js, ids, c, logprob, context, top_ids, top_lp, top_k, by_pos, answers):
    """Turn a block of logits rows (one per predicted token j in js) into what we keep."""
    for r0 in range(0, len(js), REDUCE_ROWS):
        x = block[r0:r0 + REDUCE_ROWS]
        jj = js[r0:r0 + REDUCE_ROWS]
        lse = logsumexp_rows(x)
        rows = np.arange(len(jj))
        logprob[jj] = x[rows, ids[jj]] - lse
        context[jj] = jj - c
        if top_k:
            best = np.argpartition(x, -top_k, axis=1)[:, -top_k:]
            vals = np.take_along_axis(x, best, axis=1)
            order = np.argsort(-vals, axis=1)
            top_ids[jj] = np.take_along_axis(best, order, axis=1)
            top_lp[jj] = np.take_along_axis(vals, order, axis=1) - lse[:, None]
        for r, j in enumerate(jj):
            for prefix in by_pos.get(int(j), ()):
                sel = model.ids_starting_with(prefix)
                if len(sel) == 0:
                    answers[(int(j), prefix)] = float("-inf")
                else:
                    v = x[r, sel]
                    m = v.max()
                    answers[(int(j), prefix)] = float(m + np.log(np.exp(v - m).sum()) - lse[r])
