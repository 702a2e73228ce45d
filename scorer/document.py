"""Text -> Document: the tokens the model saw, one cell per character, and every break's evidence.

Does: check and normalise input text, build the text the model reads in each context mode,
tokenize it so that every former newline falls on a token boundary, run one prefill pass,
and turn its numbers into P(newline) per candidate break, percentiles and the hybrid's P(join)
(hybrid.py); then the short passes that decide line-end hyphens (hyphen.py). A Document is data: decide.py decides its breaks, contract.py writes it as JSON.
Does not: load models (model.py), parse PDFs (pdf/) or decide anything.

Context modes:
  joined  (default) the model reads the text with every candidate newline replaced by its
          joiner; at each former newline we read P(a newline comes next | text before it).
  as-is   the original experiment: the model reads the text exactly as it is and we read
          P(newline | text before it) at each newline.
Detail:
  full    every token's log-probability and top-k alternatives (what the page shows)
  breaks  logits only at the rows the break evidence uses (P(newline) and its percentile at
          every break: what the percentile decider needs)
  cascade no pass over the whole text: only the windows of the breaks whose decision the
          model's evidence can change (hybrid.asks); what merge and batch run with the hybrid
Whatever the detail, the hybrid's model evidence is P(newline | the few tokens before the break,
read alone: hybrid.window_for), read where it asks (prefill.window_steps), so every detail
decides alike.
"""

import time
from pathlib import Path
import unicodedata
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from . import breaks as br
from . import hybrid, hyphen
from .decide import forced_keeps
from .errors import ScorerError
from .chars import cell_logprob, cell_tokens, char_byte_offsets, shared_flags
from .chars import token_byte_offsets
from .prefill import DEFAULT_OVERLAP, empty_prefill, prefill_steps, run_steps, window_steps

MODES = ("joined", "as-is")
DEFAULT_MODE = "joined"
DETAILS = ("full", "breaks", "cascade")  # fullest first: each holds what the later ones read
DEFAULT_TOP_K = 5
ALLOWED_CONTROLS = "\t\n\f"


def clean_text(text: str) -> str:
    """Normalise line endings to \\n; reject empty text, control characters (NUL etc.) and
    lone surrogates."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        raise ScorerError("the text is empty")
    for i, ch in enumerate(text):
        kind = unicodedata.category(ch)
        if kind == "Cc" and ch not in ALLOWED_CONTROLS:
            raise ScorerError(f"the text contains a control character U+{ord(ch):04X} at "
                              f"character {i}; remove it and try again")
        if kind == "Cs":  # a lone surrogate (JSON allows "\ud800"): not a character at all
            raise ScorerError(f"the text contains a lone surrogate U+{ord(ch):04X} at "
                              f"character {i}, which is not valid Unicode")
    return text


@dataclass
class Document:
    text: str  # the input, line endings normalised
    mode: str
    detail: str
    model_info: dict
    settings: dict
    scored_text: str  # what the model read (== text in as-is mode)
    ids: np.ndarray  # int32 (n_tokens,)
    pieces: list  # list[bytes], one per token
    logprob: np.ndarray  # float32 (n_tokens,), NaN where not computed
    context: np.ndarray  # int32 (n_tokens,)
    top_ids: np.ndarray  # int32 (n_tokens, k)
    top_logprob: np.ndarray  # float32 (n_tokens, k)
    break_at: list  # list[int], char offset of each candidate newline
    joins: list  # list[str], joiner of each candidate
    break_token: list  # list[int], the token whose prediction row gave the evidence (-1: none)
    logp_newline: np.ndarray  # float64 per break: log P(newline here | text before)
    logp_next: np.ndarray  # float64 per break: log P(first token of the next line | text before)
    percentile: np.ndarray  # float64 per break
    timings: dict = field(default_factory=dict)
    stats: dict = field(default_factory=dict)
    source: dict = field(default_factory=lambda: {"type": "text"})  # for a PDF: pages, removed lines
    layout: list = None  # per break: layout features from the PDF (None for plain text)
    forced: dict = field(default_factory=dict)  # char offset -> (decision, why): decide.forced_keeps
    p_join: np.ndarray = None  # float64 per break: the hybrid's P(join) (hybrid.py)
    evidence: object = None  # per break: [[feature, value, contribution], ...] (hybrid.Why)
    unhyphen: list = None  # per break: drop the hyphen ending its line when joined (hyphen.py)
    lines: list = None  # a PDF's, per line of text: page, code, table, indent (PdfText.line_info)
    asked: np.ndarray = None  # bool per break: the hybrid needed the model here (hybrid.asks)
    logp_window: np.ndarray = None  # float64 per break: log P(newline | the window's tokens before
    # it, read alone) where asked (the hybrid's model evidence), NaN elsewhere
    weights: dict = None  # the hybrid's weights file (hybrid.read_weights), None: the shipped

    @cached_property
    def cells(self) -> tuple:
        """Per character of text: (first token, last token (int32, -1 if none), log-prob
        (float32), shares a token with another character (bool)), made when first read: only the
        per-character outputs need them, and they would be most of a long text's memory."""
        return _cells(self.text, self.scored_text, self.pieces, self.logprob, self.break_at,
                      self.joins if self.mode == "joined" else None)

    def explain(self) -> None:
        """Compute the hybrid's P(join) and evidence per break (score() calls it)."""
        self.p_join, self.evidence = hybrid.explain(self)


def serves(have, want) -> bool:
    """Does a document scored with detail `have` hold all that detail `want` reads?"""
    return DETAILS.index(have) <= DETAILS.index(want)


def score(model, text, mode=DEFAULT_MODE, detail="full", top_k=DEFAULT_TOP_K,
          overlap=DEFAULT_OVERLAP, layout=None, weights=None) -> Document:
    """Score `text` with `model` in one prefill pass and gather every break's evidence.
    `layout`: a PDF's features, one dict per candidate break (score_pdf passes them); `weights`:
    the hybrid's (a weights file, hybrid.read_weights; None: the shipped ones)."""
    with model.lock:
        return run_steps(score_steps(model, text, mode, detail, top_k, overlap, layout,
                                     weights=weights))


def score_steps(model, text, mode=DEFAULT_MODE, detail="full", top_k=DEFAULT_TOP_K,
                overlap=DEFAULT_OVERLAP, layout=None, ctx=None, weights=None):
    """score() as a generator, for a scheduler that runs several documents in turns: yields
    (done, in all, stage) once tokenized and after every micro-batch: stage "prefill" counts
    the whole pass's tokens (not with detail "cascade"), "asking" the asked breaks' windows
    read (hybrid.asks), then "hyphens" the line-end hyphens read (hyphen.py); in the llama.cpp
    context `ctx` (default: the model's own); returns the Document. Whoever advances it holds
    model.lock for that step; closing it stops the work."""
    if mode not in MODES:
        raise ScorerError(f"unknown context mode {mode!r}; use one of {', '.join(MODES)}")
    if detail not in DETAILS:
        raise ScorerError(f"unknown detail {detail!r}; use one of {', '.join(DETAILS)}")
    started = time.perf_counter()
    text = clean_text(text)
    offsets, joins, scored_text, ids, pieces, break_token, queries, next_token = \
        _read_as(model, text, mode)
    tokenized = time.perf_counter()
    forced = forced_keeps(text, offsets, layout)
    asked = hybrid.asked(text, offsets, layout, forced, weights)
    windows = [(q[0], p) for q, a in zip(queries, asked) if a for p in q[1:] if p]
    whole = detail != "cascade"  # the cascade reads only the asked breaks' windows
    result = empty_prefill(len(ids))
    if whole:
        yield 0, len(ids), "prefill"
        result = yield from _staged(prefill_steps(
            model, ids, positions=None if detail == "full" else [j for j in next_token if j >= 0],
            top_k=top_k if detail == "full" else 0,
            queries=[(q[0], p) for q in queries for p in q[1:] if p], overlap=overlap, ctx=ctx),
            "prefill")
    else:
        yield 0, len({j for j, _ in windows}), "asking"
    window = hybrid.window_for(layout, weights)
    read = yield from _staged(window_steps(model, ids, windows, window, ctx), "asking")
    scored = time.perf_counter()
    unhyphen = yield from _staged(hyphen.decide_steps(model, text, offsets), "hyphens")
    hyphened = time.perf_counter()
    logp_newline = np.array([_newline_logp(result.queries, q) for q in queries], dtype=np.float64)
    logp_window = np.array([_newline_logp(read, q) if a else np.nan
                            for q, a in zip(queries, asked)], dtype=np.float64)
    logp_next = np.array([result.logprob[j] if j >= 0 else np.nan for j in next_token],
                         dtype=np.float64)
    done = time.perf_counter()
    doc = Document(
        text=text, mode=mode, detail=detail, model_info=model.info,
        settings={"window": model.window, "overlap": overlap, "batch": model.batch,
                  "top_k": top_k if detail == "full" else 0, "threads": model.threads},
        scored_text=scored_text, ids=np.asarray(ids, dtype=np.int32), pieces=pieces,
        logprob=result.logprob, context=result.context, top_ids=result.top_ids,
        top_logprob=result.top_logprob, break_at=offsets, joins=joins,
        break_token=[int(j) for j in break_token], logp_newline=logp_newline,
        logp_next=logp_next, percentile=br.percentiles(logp_newline),
        timings={"tokenize_s": round(tokenized - started, 4),
                 "prefill_s": round(scored - tokenized, 4),
                 "hyphens_s": round(hyphened - scored, 4),
                 "total_s": round(done - started, 4)},
        stats={**result.stats, "n_tokens": len(ids), "n_chars": len(text),
               "n_breaks": len(offsets), "asked": int(asked.sum()),
               "reading_window": window, "window_tokens": window * int(asked.sum())},
        layout=layout,
        forced=forced,
        unhyphen=unhyphen,
        asked=asked,
        logp_window=logp_window,
        weights=weights,
    )
    doc.explain()
    return doc


def _read_as(model, text, mode) -> tuple:
    """What the model reads of `text` in `mode`: (break offsets, joiners, the text it reads, its
    token ids and pieces, per break the token its evidence comes from, its queries [(token,
    prefix bytes, ...)] and the next line's first token)."""
    offsets = br.candidates(text)
    joins = br.joiners(text, offsets)
    if mode == "joined":
        segments = br.join_segments(text, offsets, joins)
        ids, pieces, seg_start = model.tokenize_exact(segments)
        ids, break_token = np.asarray(ids, dtype=np.int32), seg_start[1:]
        return (offsets, joins, "".join(segments), ids, pieces, break_token,
                [(j, b"\n") for j in break_token], list(break_token))
    ids, pieces, _ = model.tokenize_exact([text])
    ids = np.asarray(ids, dtype=np.int32)
    break_token, queries, next_token = _as_is_queries(text, pieces, offsets)
    return offsets, joins, text, ids, pieces, break_token, queries, next_token


def window_logps(model, text, window, mode=DEFAULT_MODE) -> np.ndarray:
    """log P(newline | the `window` tokens before it, read alone) at every break of `text`:
    the hybrid's model evidence everywhere (the evaluation trains on it). The caller holds
    model.lock."""
    _, _, _, ids, _, _, queries, _ = _read_as(model, clean_text(text), mode)
    read = run_steps(window_steps(model, ids, [(q[0], p) for q in queries for p in q[1:] if p],
                                  window))
    return np.array([_newline_logp(read, q) for q in queries], dtype=np.float64)


def _staged(steps, stage):
    """Steps that yield (done, in all), named: (done, in all, stage)."""
    while True:
        try:
            done, total = next(steps)
        except StopIteration as end:
            return end.value
        yield done, total, stage


def _as_is_queries(text, pieces, offsets):
    """Per candidate newline: the token holding it, its queries, and the next line's first token.

    A tokenizer may merge the newline with characters before it ("。\\n" as one token). Then
    P(newline | text so far) = P(next bytes start with "。\\n") / P(next bytes start with "。"),
    both read at the row where that merged token begins: the query pair (j, u + "\\n"), (j, u).
    """
    cb = char_byte_offsets(text)
    tb = token_byte_offsets(pieces)
    break_token, queries, next_token = [], [], []
    for i in offsets:
        b = int(cb[i])
        j = int(np.searchsorted(tb, b, side="right") - 1)
        u = pieces[j][: b - int(tb[j])]
        break_token.append(j)
        queries.append((j, u + b"\n", u))
        k = int(np.searchsorted(tb, b + 1, side="right") - 1)
        next_token.append(k if int(tb[k]) == b + 1 else -1)
    return break_token, queries, next_token


def _newline_logp(answers, query) -> float:
    j, prefix = query[0], query[1]
    if (j, prefix) not in answers:
        return np.nan
    value = answers[(j, prefix)]
    if len(query) > 2 and query[2]:  # divide out P(the bytes merged before the newline)
        value -= answers[(j, query[2])]
    return value


def _cells(text, scored_text, pieces, token_logprob, offsets, joins):
    """Cells of the input text; mapped from the joined text the model read when `joins` given."""
    first, last = cell_tokens(scored_text, pieces)
    lp = cell_logprob(first, last, token_logprob)
    shared = shared_flags(scored_text, pieces, first, last)
    if joins is None:
        return first, last, lp, shared
    # original char p -> joined char p + shift(p), shift growing by len(joiner) - 1 per candidate
    n = len(text)
    delta = np.zeros(n + 1, dtype=np.int64)
    is_break = np.zeros(n, dtype=bool)
    for i, join in zip(offsets, joins):
        delta[i + 1] += len(join) - 1
        is_break[i] = True
    where = np.arange(n) + np.cumsum(delta)[:n]
    where[is_break] = 0
    out = [a[where].copy() for a in (first, last, lp, shared)]
    out[0][is_break], out[1][is_break], out[2][is_break], out[3][is_break] = -1, -1, np.nan, False
    return tuple(out)


def score_pdf(model, source, mode=DEFAULT_MODE, detail="full", top_k=DEFAULT_TOP_K,
              overlap=DEFAULT_OVERLAP, name=None, guard=None, weights=None) -> Document:
    """Score the text of a PDF (a path, or its bytes with `name`); every break carries its
    layout features, table rows stay rows. The PDF is read within `guard`'s limits (time,
    memory, pages, characters; pdfguard.py), default ones when None.

    Running headers, footers and page numbers are left out of the text and listed in
    doc.source["removed"].
    """
    from .pdfguard import Guard, read_pdf_guarded

    name = name or Path(source).name
    pdf = read_pdf_guarded(source, name, guard or Guard())
    return score_pdf_text(model, pdf, name, mode=mode, detail=detail, top_k=top_k,
                          overlap=overlap, weights=weights)


def score_pdf_text(model, pdf, name, mode=DEFAULT_MODE, detail="full", top_k=DEFAULT_TOP_K,
                   overlap=DEFAULT_OVERLAP, weights=None) -> Document:
    """Score a PDF already read (`pdf`, a pdf.PdfText; `name` its file's): its text with every
    break's layout, its source and lines (score_pdf, for a caller that reads the PDF itself)."""
    doc = score(model, pdf.text, mode=mode, detail=detail, top_k=top_k, overlap=overlap,
                layout=pdf.break_layout(), weights=weights)
    doc.source = {**pdf.source(), "file": name}
    doc.lines = pdf.line_info()
    return doc
