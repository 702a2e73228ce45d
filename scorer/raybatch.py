"""`prefill-lens batch --engine ray`: the batch on a Ray cluster, or on a Ray runtime started on
this machine. Same inputs, same outputs, same resume as the local engine (batch.py).

Does: join the cluster at --address / $RAY_ADDRESS (else start Ray here), run N actors that
each load the model once and score many files (an actor pool of our own rather than Ray Data:
inputs are whole files of very different sizes, each actor keeps its model warm, and the driver
feeds the next file to whichever actor is free), hand each actor the input's bytes and take
back the outputs' text: the driver reads and writes every file, so OUTDIR need not be shared
storage. An actor's llama.cpp threads are the CPUs Ray assigns it. An actor process that dies
mid-file is restarted by Ray (its model loaded again) and the file retried, MAX_RETRIES times;
then the file is reported failed and a fresh actor takes its place.
Does not: decide, write files, or get imported unless asked for (Ray is heavy and optional:
requirements-ray.txt). Cluster nodes need this package and the model (the default one comes
with it from PyPI; another GGUF must lie at the same --model path on every node).
"""

import os
import socket
from collections import deque

from .batchfile import failed_row, read_file, score_file
from .errors import BadInput, ScorerError

MAX_RETRIES = 2  # an actor that dies on a file is restarted and the file retried this often


class Worker:
    """One Ray actor: one model, many files."""

    def __init__(self, model_path):
        import ray

        from .model import load_model

        cpus = ray.get_runtime_context().get_assigned_resources().get("CPU", 1)
        self.model = load_model(model_path, threads=max(1, int(cpus)))

    def score(self, item, data):
        row = score_file(self.model, item, data)
        row["worker"] = f"{socket.gethostname()}:{os.getpid()}"
        return row


HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
EMPTY_SETTINGS = b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"  # an HTTP/2 frame: length 0, SETTINGS


def speaks_grpc(address, timeout=5.0) -> None:
    """Refuse, in seconds, an address where no Ray head listens: ray.init waits minutes for a
    port that is closed, or open but another server's. A Ray head (its GCS) speaks gRPC, so it
    answers HTTP/2's opening with a SETTINGS frame; anything else does not."""
    host, _, port = address.rpartition(":")
    hint = "start one with `ray start --head` or leave out --address"
    try:
        with socket.create_connection((host.strip("[]") or "127.0.0.1", int(port)),
                                      timeout=timeout) as conn:
            conn.sendall(HTTP2_PREFACE + EMPTY_SETTINGS)
            answer = b""
            while len(answer) < 9:
                got = conn.recv(9 - len(answer))
                if not got:
                    break
                answer += got
    except (OSError, ValueError) as exc:
        raise BadInput(f"cannot reach a Ray cluster at {address!r} ({exc}); {hint}") from None
    if len(answer) < 9 or answer[3] != 0x04:
        raise BadInput(f"{address!r} answers, but not as a Ray head (no gRPC there); {hint}")


def connect(address, workers) -> None:
    """Join the cluster at `address` (host:port of its head, or ray://...), else $RAY_ADDRESS,
    else start Ray on this machine. A cluster that cannot be reached is one clear error."""
    import ray

    address = address or os.environ.get("RAY_ADDRESS") or None
    if address and address != "auto" and not address.startswith("ray://"):
        speaks_grpc(address)
    try:
        ray.init(address=address, include_dashboard=False, log_to_driver=False,
                 logging_level="ERROR", configure_logging=False)
    except Exception as exc:  # Ray raises ConnectionError, RuntimeError, ...
        raise ScorerError(f"cannot start or join Ray at {address or 'this machine'}: {exc}") from None
    cpus = int(ray.cluster_resources().get("CPU", 0))
    if cpus < workers:
        ray.shutdown()
        raise BadInput(f"{workers} workers need {workers} CPUs; the Ray cluster has {cpus}")


def rows(items, model_path=None, workers=2, address=None):
    """Score `items` (batchfile.BatchFile) on Ray: yields one result row per item (with the
    outputs' text), in the order they finish; the driver reads each input's bytes."""
    import ray
    from ray.exceptions import RayActorError, RayTaskError

    connect(address, workers)
    try:
        # the cluster's CPUs shared out, but never more than one node has
        biggest = max(node["Resources"].get("CPU", 0) for node in ray.nodes() if node["Alive"])
        per_actor = max(1, min(int(ray.cluster_resources()["CPU"]) // workers, int(biggest)))
        actor_class = ray.remote(num_cpus=per_actor, max_restarts=MAX_RETRIES,
                                 max_task_retries=MAX_RETRIES)(Worker)
        actors = [actor_class.remote(model_path) for _ in range(workers)]
        queue, pending = deque(items), {}  # pending: ObjectRef -> (actor, item)

        def feed(actor):
            while queue:
                item = queue.popleft()
                try:
                    data = read_file(item)
                except ScorerError as exc:
                    yield failed_row(item, str(exc))
                    continue
                pending[actor.score.remote(item, data)] = (actor, item)
                return

        for actor in actors:
            yield from feed(actor)
        while pending:
            (ref,), _ = ray.wait(list(pending), num_returns=1)
            actor, item = pending.pop(ref)
            try:
                yield ray.get(ref)
            except (RayActorError, RayTaskError) as exc:
                yield failed_row(item, f"its worker died {MAX_RETRIES + 1} times while scoring it "
                                      f"({type(exc).__name__})")
                actor = actor_class.remote(model_path)  # a fresh one for the rest
            yield from feed(actor)
    finally:
        ray.shutdown()
