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
from collections import deque
from dataclasses import dataclass, field

import numpy as np

from .errors import ScorerError

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


def block_size(n_vocab: int) -> int:
    """Columns per block for `row_stats`: about sqrt(n_vocab)."""
    return max(1, int(np.sqrt(n_vocab)))


def row_stats(x: np.ndarray, k: int, scratch: np.ndarray) -> tuple:
    """(log-sum-exp, indices of the k largest entries in any order) for each row of x.

    The top-k search never sorts a whole row: x is cut into blocks of about sqrt(n_vocab)
    columns; the k largest entries lie in the k blocks with the largest maxima, so only those
    blocks (and the few tail columns that fill no block) are searched. The block maxima give
    the row max for the log-sum-exp as well. About five passes over x in all.
    """
    rows, n = x.shape
    bs = block_size(n)
    nb = n // bs
    block_max = x[:, :nb * bs].reshape(rows, nb, bs).max(axis=2)  # (rows, nb)
    m = block_max.max(axis=1)
    if nb * bs < n:
        m = np.maximum(m, x[:, nb * bs:].max(axis=1))
    buf = np.subtract(x, m[:, None], out=scratch[:rows])
    np.exp(buf, out=buf)
    lse = m + np.log(buf.sum(axis=1))
    if k == 0:
        return lse, None
    kb = min(k, nb)
    blocks = np.argpartition(block_max, -kb, axis=1)[:, -kb:]  # (rows, kb)
    cols = (blocks[:, :, None] * bs + np.arange(bs)).reshape(rows, kb * bs)
    if nb * bs < n:
        cols = np.concatenate([cols, np.broadcast_to(np.arange(nb * bs, n), (rows, n - nb * bs))],
                              axis=1)
    vals = np.take_along_axis(x, cols, axis=1)
    pick = np.argpartition(vals, -k, axis=1)[:, -k:]
    return lse, np.take_along_axis(cols, pick, axis=1)


def empty_prefill(n: int) -> Prefill:
    """A Prefill of n tokens that computed nothing (every number NaN, no top-k)."""
    # read-only views of one number, not n copies: the cascade's long texts keep these
    return Prefill(np.broadcast_to(np.float32(np.nan), n), np.broadcast_to(np.int32(-1), n),
                   np.zeros((n, 0), dtype=np.int32), np.full((n, 0), np.nan, dtype=np.float32),
                   {}, {"windows": 0, "decoded": 0, "recomputed": 0, "logit_rows": 0, "seconds": 0.0})


def prefill(model, ids, **options) -> Prefill:
    """Score `ids` (token ids of the text, without BOS) in one forward pass (prefill_steps,
    run to the end). The caller holds model.lock."""
    return run_steps(prefill_steps(model, ids, **options))


def run_steps(steps):
    """Drive a generator of steps to its end; its return value."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


def prefill_steps(model, ids, *, positions=None, top_k=0, queries=(), overlap=DEFAULT_OVERLAP,
                  batch=None, shift=None, ctx=None):
    """The prefill pass as a generator: yields (tokens read so far, len(ids)) after each
    micro-batch, and returns the Prefill. A scheduler can run
    several passes in turns, each in its own llama.cpp context `ctx` (default: the model's own),
    or stop one by closing it.

    positions: token indices whose log-probability is wanted (None: all of them).
    queries: iterable of (j, prefix bytes); each answered with log P(next bytes start with prefix).
    shift: keep the last `overlap` tokens in the KV cache when a window is full (None: when
    the model allows it and has a BOS token), else recompute them at the next window's start.
    Whoever advances it holds model.lock for that step.
    """
    ids = np.asarray(ids, dtype=np.int32)
    n = len(ids)
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
    if not model.add_bos and n:
        need[0] = False  # nothing precedes the first token
    answers = {}
    stats = {"windows": 0, "decoded": 0, "recomputed": 0, "logit_rows": int(need.sum())}

    started = time.perf_counter()
    scratch = np.empty((REDUCE_ROWS, model.n_vocab), dtype=np.float32)
    read = 0
    for js, block, c, upto in decode(model, ids, need, overlap=overlap, batch=batch or model.batch,
                                     shift=shift, stats=stats, ctx=ctx):
        if js is not None:
            _reduce(model, block, js, ids, c, logprob, context, top_ids, top_lp, top_k, by_pos,
                    answers, scratch)
        read = max(read, upto)  # a recomputed window starts before the last one ended
        yield read, n
    stats["seconds"] = time.perf_counter() - started
    return Prefill(logprob, context, top_ids, top_lp, answers, stats)


def decode(model, ids, need, *, overlap, batch, shift=None, stats=None, ctx=None):
    """Decode every token of `ids` in windows of model.window positions (BOS included), in the
    llama.cpp context `ctx` (default: the model's own).

    Yields (js, block, c, upto) after each micro-batch: block[r] is a view of llama.cpp's logits
    predicting token js[r] (valid until the next decode; js and block are None when the
    micro-batch produced no wanted row), c is the first text token in the context window then,
    and upto the end of the tokens decoded. need[j] says whether token j's prediction is
    wanted. With `shift`, a full window keeps its last `overlap` tokens in the KV cache and
    moves them to the front (no recompute); otherwise the next window decodes them again.
    """
    lib = model.lib
    ctx = ctx or model.ctx
    stats = stats if stats is not None else {"windows": 0, "decoded": 0, "recomputed": 0}
    memory = lib.llama_get_memory(ctx)
    if shift is None:  # shifting needs an attention sink: without BOS at position 0 the
        # model degrades once the first tokens leave the cache (measured: SmolLM2 lost 0.9
        # nats/token against recomputing), so models without BOS recompute instead
        shift = model.add_bos and bool(lib.llama_memory_can_shift(memory))
    stats["shift"] = shift
    handle = _one_sequence_batch(lib, batch)
    try:
        steps = _shifting(lib, memory, model, len(ids), overlap, batch, stats) if shift else \
            _recomputing(lib, memory, model, len(ids), overlap, batch, need, stats)
        for c, new_from, first, last, with_bos, start_pos in steps:
            # one micro-batch: [BOS] ids[first:last] at cache positions start_pos...; only
            # predictions of tokens >= new_from count (earlier ones are context seen before)
            toks = ids[first:last]
            preds = np.arange(first + 1, last + 1)  # the row of token t predicts token t+1
            if with_bos:
                toks = np.concatenate(([model.bos], toks)).astype(np.int32)
                preds = np.concatenate(([first], preds))
            valid = (preds < len(ids)) & (preds >= new_from)
            want = np.zeros(len(preds), dtype=bool)
            want[valid] = need[preds[valid]]
            js = _submit(lib, ctx, handle, toks, start_pos, want, preds, stats)
            block = None if js is None else np.ctypeslib.as_array(
                lib.llama_get_logits(ctx), shape=(len(js), model.n_vocab))
            yield js, block, c, last
    finally:
        lib.llama_batch_free(handle)


def _submit(lib, ctx, handle, toks, start_pos, want, preds, stats):
    """Fill the batch, decode it; the predicted token indices of the rows with logits, or None."""
    k = len(toks)
    np.ctypeslib.as_array(handle.token, shape=(k,))[:] = toks
    np.ctypeslib.as_array(handle.pos, shape=(k,))[:] = np.arange(start_pos, start_pos + k)
    np.ctypeslib.as_array(handle.logits, shape=(k,))[:] = want
    handle.n_tokens = k
    ret = lib.llama_decode(ctx, handle)
    if ret != 0:
        raise ScorerError(f"llama.cpp failed to decode a batch (code {ret})")
    stats["decoded"] += k
    return preds[want] if want.any() else None


def readings_steps(model, items):
    """[[log P(continuation | prefix) for each continuation] for each (prefix, continuations) of
    `items`] (lists of token ids): as many items in one llama.cpp decode as fit, in the model's
    readings context (model.readings_context). Each item's prefix is decoded once, its tokens
    in the sequences of all its continuations (one sequence each), so its readings share it;
    the BOS is decoded once a decode, in every sequence; no item sees another's tokens, and
    every decode starts from an empty cache. A generator of
    steps (one per decode, holding model.lock as prefill_steps does: yields (items read, items
    in all)) that returns the list. Without BOS and prefix, a continuation's first token has
    no prediction and counts 0. A decode holds at most model.READINGS_BATCH tokens and
    READINGS_ROWS rows of logits (each a vocabulary's floats: what bounds its memory); an item
    too long for one reads as None."""
    lib = model.lib
    ctx = model.readings_context()
    memory = lib.llama_get_memory(ctx)
    bos = [model.bos] if model.add_bos else []
    limits = (model.READINGS_BATCH, model.READINGS_ROWS, model.READINGS_SEQUENCES)
    costs = []  # per item: (tokens, rows of logits, sequences) in a decode, the BOS apart
    for prefix, conts in items:
        after = sum(max(len(c) - 1, 0) for c in conts)
        costs.append((len(prefix) + after, bool(bos or prefix) + after, len(conts)))
    empty = (len(bos), 0, 0)  # a decode's own: its one BOS
    out = [None] * len(items)
    todo = deque(i for i, cost in enumerate(costs)
                 if all(e + c <= lim for e, c, lim in zip(empty, cost, limits)))
    handle = lib.llama_batch_init(limits[0], 0, limits[2])
    try:
        while todo:
            group, used = [], empty
            while todo and all(u + c <= lim for u, c, lim in zip(used, costs[todo[0]], limits)):
                group.append(todo.popleft())
                used = tuple(u + c for u, c in zip(used, costs[group[-1]]))
            rows = _fill_readings(handle, [items[i] for i in group], bos)
            logits = None  # no rows: nothing to read
            if handle.n_tokens:
                lib.llama_memory_clear(memory, True)
                if lib.llama_decode(ctx, handle) != 0:
                    raise ScorerError("llama.cpp failed to decode a batch of readings")
                logits = np.ctypeslib.as_array(lib.llama_get_logits(ctx),
                                               shape=(rows["n"], model.n_vocab))
            for i, spans in zip(group, rows["items"]):
                out[i] = [float(sum(logits[r][t] - _lse(logits[r])
                                    for r, t in zip(span, cont) if r is not None))
                          for span, cont in zip(spans, items[i][1])]
            yield len(items) - len(todo), len(items)
        return out
    finally:
        lib.llama_batch_free(handle)


def _fill_readings(handle, items, bos) -> dict:
    """Lay (prefix, continuations) items into a llama.cpp batch: `bos` ([] or [its id]) once at
    position 0 in every sequence, each prefix's tokens after it in every sequence of its item,
    each continuation but its last token in a sequence of its own, logits at each head's last
    token (head: BOS and prefix) and at each continuation token. Returns {"n": rows of logits,
    "items": [per item, per continuation: the row predicting each of its tokens (None for the
    first when there is no head)]}."""
    k, seq, row, laid = 0, 0, 0, []
    if bos:
        handle.token[0], handle.pos[0] = bos[0], 0
        handle.n_seq_id[0] = sum(len(conts) for _, conts in items)
        for s in range(handle.n_seq_id[0]):
            handle.seq_id[0][s] = s
        handle.logits[0] = any(not prefix for prefix, _ in items)
        k, row = 1, int(handle.logits[0])
    for prefix, conts in items:
        seqs = range(seq, seq + len(conts))
        for pos, tok in enumerate(prefix, start=len(bos)):
            handle.token[k], handle.pos[k], handle.n_seq_id[k] = tok, pos, len(seqs)
            for q, s in enumerate(seqs):
                handle.seq_id[k][q] = s
            handle.logits[k] = pos == len(bos) + len(prefix) - 1  # the head's last token
            k += 1
        if prefix:
            last, row = row, row + 1  # the row at its prefix's last token
        else:
            last = 0 if bos else None  # the shared BOS's row, or none to predict from
        spans, after = [], len(bos) + len(prefix)  # the position continuations start at
        for s, cont in zip(seqs, conts):
            span = [last]
            for q, tok in enumerate(cont[:-1]):
                handle.token[k], handle.pos[k], handle.n_seq_id[k] = tok, after + q, 1
                handle.seq_id[k][0], handle.logits[k] = s, True
                span.append(row)
                k, row = k + 1, row + 1
            spans.append(span)
        laid.append(spans)
        seq += len(conts)
    handle.n_tokens = k
    return {"n": row, "items": laid}


def window_steps(model, ids, queries, context, ctx=None):
    """{(j, prefix): log P(the bytes at j start with prefix | the `context` tokens before j,
    read alone)} for each of `queries` (j, prefix): every reading decodes [BOS]
    ids[j - context:j] from an empty cache, logits at its last row only, so that its number
    does not depend on where in the text, or after what, it stands. A generator of steps (one
    per reading: yields (done, in all)) that returns the dict. Without BOS the first token
    has no prediction (none in the dict)."""
    lib, ctx = model.lib, ctx or model.ctx
    memory = lib.llama_get_memory(ctx)
    ids = np.asarray(ids, dtype=np.int32)
    by_pos = {}
    for j, prefix in queries:
        by_pos.setdefault(int(j), []).append(prefix)
    bos = [model.bos] if model.add_bos else []
    if context + len(bos) > min(model.window, model.batch):
        raise ScorerError(f"a reading of {context} tokens does not fit the model's window of "
                          f"{model.window} or batch of {model.batch}")
    handle = _one_sequence_batch(lib, model.batch)
    answers, stats = {}, {"decoded": 0}
    try:
        for done, (j, prefixes) in enumerate(sorted(by_pos.items())):
            toks = np.asarray(bos + list(ids[max(0, j - context):j]), dtype=np.int32)
            if len(toks):
                lib.llama_memory_clear(memory, True)
                want = np.zeros(len(toks), dtype=bool)
                want[-1] = True
                _submit(lib, ctx, handle, toks, 0, want, np.arange(len(toks)), stats)
                row = _logits(lib, ctx, model, 1)[0]
                lse = _lse(row)
                for prefix in prefixes:
                    answers[(j, prefix)] = _prefix_logp(model, row, lse, prefix)
            yield done + 1, len(by_pos)
        return answers
    finally:
        lib.llama_batch_free(handle)


def _prefix_logp(model, row, lse, prefix) -> float:
    """log P(the next bytes start with `prefix`) from one row of logits and its log-sum-exp."""
    sel = model.ids_starting_with(prefix)
    if len(sel) == 0:
        return float("-inf")
    v = row[sel]
    m = v.max()
    return float(m + np.log(np.exp(v - m).sum()) - lse)


def _one_sequence_batch(lib, size):
    """A llama.cpp batch of `size` tokens, every one in sequence 0 (free it with
    llama_batch_free)."""
    handle = lib.llama_batch_init(size, 0, 1)
    for i in range(size):
        handle.n_seq_id[i] = 1
        handle.seq_id[i][0] = 0
    return handle


def _logits(lib, ctx, model, rows) -> np.ndarray:
    """The last decode's logits rows (a copy)."""
    return np.ctypeslib.as_array(lib.llama_get_logits(ctx), shape=(rows, model.n_vocab)).copy()


def _lse(row: np.ndarray) -> float:
    """log-sum-exp of one row of logits."""
    m = row.max()
    return m + np.log(np.exp(row - m).sum())


def _recomputing(lib, memory, model, n, overlap, batch, need, stats):
    """Micro-batches of independent windows: clear the cache, decode [BOS] ids[c:b] again."""
    bos = model.add_bos
    for c, a, b in windows(n, model.window, overlap, bos):
        if not need[a:b].any():
            continue  # nothing asked in this window: skip its decode entirely
        lib.llama_memory_clear(memory, True)
        stats["windows"] += 1
        stats["recomputed"] += a - c
        # The whole window is decoded, in the same micro-batches whatever is wanted: llama.cpp's
        # numbers depend a little on how a sequence is cut into batches, and the detail levels
        # must agree exactly. Rows before `a` predict context tokens: `decode` drops them.
        first, pos = c, 0
        while first < b:
            take = min(batch - (1 if bos and pos == 0 else 0), b - first)
            yield c, a, first, first + take, bos and pos == 0, pos
            pos += take + (1 if bos and pos == 0 else 0)
            first += take


def _shifting(lib, memory, model, n, overlap, batch, stats):
    """Micro-batches of one continuous pass; a full cache keeps its last `overlap` tokens."""
    bos = 1 if model.add_bos else 0
    room = model.window - bos  # text tokens the cache holds
    if room <= overlap:
        raise ScorerError(f"window of {model.window} tokens is too small for an overlap of {overlap}")
    lib.llama_memory_clear(memory, True)
    stats["windows"] = 1 if n else 0
    c = nxt = 0  # first text token in the cache, next text token to decode
    while nxt < n:
        if nxt - c >= room:  # full: drop all but the last `overlap` tokens, move those down
            drop = nxt - overlap - c
            lib.llama_memory_seq_rm(memory, 0, bos, bos + drop)
            lib.llama_memory_seq_add(memory, 0, bos + drop, -1, -drop)
            c += drop
            stats["windows"] += 1
        with_bos = bool(bos) and nxt == 0
        take = min(batch - (1 if with_bos else 0), room - (nxt - c), n - nxt)
        yield c, nxt, nxt, nxt + take, with_bos, 0 if with_bos else bos + nxt - c
        nxt += take


def _reduce(model, block, js, ids, c, logprob, context, top_ids, top_lp, top_k, by_pos, answers,
            scratch):
    """Turn a block of logits rows (one per predicted token j in js) into what we keep."""
    for r0 in range(0, len(js), REDUCE_ROWS):
        x = block[r0:r0 + REDUCE_ROWS]
        jj = js[r0:r0 + REDUCE_ROWS]
        lse, best = row_stats(x, top_k, scratch)
        rows = np.arange(len(jj))
        logprob[jj] = x[rows, ids[jj]] - lse
        context[jj] = jj - c
        if top_k:
            vals = np.take_along_axis(x, best, axis=1)
            order = np.argsort(-vals, axis=1)
            top_ids[jj] = np.take_along_axis(best, order, axis=1)
            top_lp[jj] = np.take_along_axis(vals, order, axis=1) - lse[:, None]
        for r, j in enumerate(jj):
            for prefix in by_pos.get(int(j), ()):
                answers[(int(j), prefix)] = _prefix_logp(model, x[r], lse[r], prefix)
