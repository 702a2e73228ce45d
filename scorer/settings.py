"""Every setting of the product, declared once: its name, default and what it does.

The web app's config (web/__init__.py) starts from these, then PREFILL_LENS_<NAME> environment
variables, then what its caller passes. The engine's own defaults (the PDF guard, the scorer,
the job scheduler) and the CLI's option defaults are read from here too, and the settings
table in docs/serving.md is written from it (reference.py): no default is typed twice.

    from scorer.settings import DEFAULT      # DEFAULT["MAX_PAGES"] -> 500

Does not: read the environment or parse anything (Flask's from_prefixed_env does, for the web).
"""

from dataclasses import dataclass

ENV_PREFIX = "PREFILL_LENS_"


@dataclass(frozen=True)
class Setting:
    name: str
    default: object
    help: str
    web: bool = True  # False: used by the engine only (the CLI's and the Python API's defaults)

    @property
    def env(self) -> str:
        return ENV_PREFIX + self.name


SETTINGS = (
    Setting("MODEL", None, "the GGUF model; unset: $PREFILL_LENS_MODEL, else the packaged "
                           "Gemma 3 270M"),
    Setting("COMPARE_MODEL", "", "a second GGUF model the page can score the same document with, "
                                 "to show where two models disagree (\"\": none)"),
    Setting("WEIGHTS", "", "the hybrid's weights file, fitted to a family of documents by "
                           "`prefill-lens train` (\"\": the shipped ones)"),
    Setting("MAX_CHARS", 200_000, "longest text scored in one request (a PDF's text too)"),
    Setting("SYNC_MAX_CHARS", 20_000, "longest text /api/score and /api/merge wait for (longer "
                                      "ones go through /api/jobs, with progress and cancel)"),
    Setting("MAX_CONTENT_LENGTH", 20 * 1024 * 1024, "bytes of one request body, uploads included"),
    Setting("SAMPLES_DIR", None, "folder of the samples the page offers (unset: the checkout's "
                                 "samples/)"),
    Setting("DEFAULT_SAMPLE", "", "a file name in SAMPLES_DIR that the page loads and scores on "
                                  "open"),
    Setting("CACHE_SIZE", 16, "scored documents kept for repeated requests"),
    Setting("MAX_PAGES", 500, "longest PDF accepted, in pages (the CLI's --max-pages)"),
    Setting("PDF_SECONDS", 20.0, "reading one uploaded PDF may take this long, all its pages "
                                 "together"),
    Setting("PDF_MEMORY_MB", 1536, "address space of the child process that reads an uploaded "
                                   "PDF"),
    Setting("PDF_READERS", 3, "uploaded PDFs read at once (never all of them for one sender)"),
    Setting("OFFLINE_PDF_SECONDS", 120.0, "the same time limit for the CLI, the batch and the "
                                          "Python API (--pdf-timeout)", web=False),
    Setting("OFFLINE_PDF_MEMORY_MB", 2048, "the same memory limit for the CLI, the batch and the "
                                           "Python API (--pdf-memory)", web=False),
    Setting("OFFLINE_MAX_CHARS", 2_000_000, "longest text scored by the CLI, the batch and the "
                                            "Python API, a PDF's text too (--max-chars)",
            web=False),
    Setting("OFFLINE_MAX_PDF_MB", 256, "largest PDF file they read, in MB (--max-pdf-mb)",
            web=False),
    Setting("INPUT_IDLE_S", 30.0, "a pipe or device named as an input that sends nothing for "
                                  "this long is given up on (standard input is waited for)",
            web=False),
    Setting("MAX_ACTIVE", 3, "documents scored in turns at once (each holds a llama.cpp "
                             "context)"),
    Setting("JOB_IDLE_S", 60.0, "a job nobody asks about for this long is cancelled"),
    Setting("JOB_KEEP_S", 600.0, "a finished job is forgotten this long after it ends"),
    Setting("MAX_JOBS", 64, "jobs queued or running at once; more are refused (503)"),
    Setting("MAX_STREAMS", 8, "open job event streams in all (each holds a server thread; "
                              "`serve` lowers it to a third of its threads); past it the page "
                              "polls"),
    Setting("STREAMS_PER_CLIENT", 4, "open job event streams from one client address"),
    Setting("MAX_SYNC", 6, "requests waiting for their scoring (/api/score, /api/merge) at once; "
                           "more get 429 (`serve` lowers it to a third of its threads)"),
    Setting("SYNC_PER_CLIENT", 2, "of those, from one client address"),
    Setting("JOBS_PER_CLIENT", 8, "jobs queued or running from one client address; more get "
                                  "429"),
    Setting("CONNECTIONS_PER_CLIENT", 32, "open connections from one client address (`serve`); "
                                          "more are closed at once"),
    Setting("REQUEST_READ_S", 60.0, "a request (headers and body) must arrive within this long "
                                    "(`serve`; a client that trickles is cut off)"),
    Setting("PROXY_HOPS", 0, "reverse proxies in front that set X-Forwarded-For: the client's "
                             "address is read from it (the per-client limits count real "
                             "clients, and the connection cap is left to the proxy)"),
    Setting("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "::1"],
            'the Host header must name one of these (DNS rebinding); "*" allows any; in the '
            'environment: "a.example,b.example"'),
)

DEFAULT = {s.name: s.default for s in SETTINGS}


def web_defaults() -> dict:
    """The web app's config before the environment and its caller have their say."""
    return {s.name: s.default for s in SETTINGS if s.web}


def markdown_table() -> str:
    """The settings as the Markdown table of docs/serving.md."""
    rows = ["| Setting (environment variable) | Default | What it does |", "|---|---|---|"]
    for s in SETTINGS:
        default = ", ".join(s.default) if isinstance(s.default, list) else s.default
        where = "" if s.web else " (CLI, batch, Python API)"
        rows.append(f"| `{s.env}` | `{default}` | {s.help}{where} |")
    return "\n".join(rows) + "\n"
