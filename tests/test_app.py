"""The web layer: routes, errors, limits (fake scorer), and real concurrent scoring (real model)."""

import io
import threading
import time
from pathlib import Path

import pytest

from tests import pdfs
from app import create_app
from scorer import ModelUnavailable, decide


def test_index_page_is_served_with_its_assets(client):
    page = client.get("/")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert 'type="module"' in html and "/static/main.js" in html
    for asset in ("main.js", "render.js", "api.js", "style.css"):
        assert client.get(f"/static/{asset}").status_code == 200
    assert "https://" not in html  # works offline: no CDN


def test_score_json(client, fake_scorer):
    r = client.post("/api/score", json={"text": "a\nb", "mode": "as-is"})
    assert r.status_code == 200
    assert r.get_json()["mode"] == "as-is"
    assert fake_scorer.calls == [("score", "a\nb", "as-is", decide.Policy("hybrid", 34.0))]
    # the scorer's JSON is sent piece by piece as written: never parsed back and serialised again
    assert r.mimetype == "application/json" and r.get_data(as_text=True) == fake_scorer.sent


def test_score_upload(client, fake_scorer):
    data = {"file": (io.BytesIO("上传\n文本".encode()), "doc.txt"), "mode": "joined"}
    r = client.post("/api/score", data=data, content_type="multipart/form-data")
    assert r.status_code == 200
    assert r.get_json()["text"] == "上传\n文本"


def test_merge(client, fake_scorer):
    r = client.post("/api/merge", json={"text": "a\nb", "cutoff": 50, "overrides": {"1": "keep"}})
    assert r.status_code == 200 and r.get_json()["merged"] == "a b"
    # a cutoff alone means the percentile decides
    assert fake_scorer.calls[-1] == ("merge", "a\nb", "joined",
                                     decide.Policy("percentile", 50.0, {1: "keep"}))


def test_decider_is_chosen_or_refused(client, fake_scorer):
    r = client.post("/api/merge", json={"text": "a\nb", "cutoff": 50, "decide": "hybrid"})
    assert r.status_code == 200 and fake_scorer.calls[-1][-1].by == "hybrid"
    r = client.post("/api/merge", json={"text": "a\nb", "decide": "coin"})
    assert r.status_code == 400 and "decider" in r.get_json()["error"]


def test_samples(client):
    listing = client.get("/api/samples").get_json()
    assert listing == [{"name": "one.txt", "chars": 8}]
    assert client.get("/api/samples/one.txt").get_json()["text"] == "第一行\n第二行\n"
    assert client.get("/api/samples/missing.txt").status_code == 404
    assert client.get("/api/samples/..%2Fapp.py").status_code == 404


@pytest.mark.parametrize("kwargs, status, fragment", [
    ({"json": {}}, 400, "text"),
    ({"json": {"text": 5}}, 400, "string"),
    ({"data": "not json", "content_type": "text/plain"}, 400, "JSON"),
    ({"json": {"text": "x", "mode": "sideways"}}, 400, "mode"),
    ({"json": {"text": "x", "cutoff": 140}}, 400, "cutoff"),
    ({"json": {"text": "x", "cutoff": "high"}}, 400, "cutoff"),
    ({"json": {"text": "x", "overrides": {"1": "maybe"}}}, 400, "overrides"),
    ({"json": {"text": "x" * 1001}}, 413, "limit"),
    ({"data": {"file": (io.BytesIO(b"x" * 5000), "big.txt")}, "content_type": "multipart/form-data"},
     413, "too large"),
    ({"data": {"file": (io.BytesIO(b"\xff\xfe"), "bad.txt")}, "content_type": "multipart/form-data"},
     400, "UTF-8"),
    ({"data": {"other": (io.BytesIO(b"x"), "a.txt")}, "content_type": "multipart/form-data"},
     400, "file"),
    ({"data": {"file": (io.BytesIO(b"PK\x03\x04\xbe"), "minutes.docx")},
      "content_type": "multipart/form-data"}, 400, "only .txt and .pdf"),
])
def test_bad_requests_get_json_errors(client, kwargs, status, fragment):
    r = client.post("/api/score", **kwargs)
    assert r.status_code == status
    assert fragment in r.get_json()["error"]


def test_unknown_route_and_method_are_json(client):
    assert client.get("/api/nothing").status_code == 404
    assert "error" in client.get("/api/nothing").get_json()
    assert client.get("/api/score").status_code == 405


def test_model_unavailable_is_503(app, fake_scorer):
    fake_scorer.error = ModelUnavailable("model file not found: /x.gguf")
    r = app.test_client().post("/api/score", json={"text": "a"})
    assert r.status_code == 503 and "not found" in r.get_json()["error"]


def test_real_missing_model_is_503(tmp_path):
    app = create_app({"TESTING": True, "MODEL": str(tmp_path / "nope.gguf")})
    r = app.test_client().post("/api/score", json={"text": "一行\n两行"})
    assert r.status_code == 503
    assert "nope.gguf" in r.get_json()["error"]


@pytest.mark.model
def test_real_scoring_errors_and_concurrency(smollm_path):
    """Several users at once with the real model: all succeed, none sees another's text."""
    app = create_app({"TESTING": True, "MODEL": str(smollm_path)})
    client = app.test_client()
    empty = client.post("/api/score", json={"text": "  \n "})
    assert empty.status_code == 400 and "empty" in empty.get_json()["error"]
    nul = client.post("/api/score", json={"text": "a\x00b"})
    assert nul.status_code == 400 and "U+0000" in nul.get_json()["error"]

    texts = [f"Line {k} of a wrapped\nparagraph number {k}.\n第{k}行\n继续" for k in range(6)]
    sequential = {t: client.post("/api/score", json={"text": t}).get_json() for t in texts[:2]}
    app.extensions["scorer"]._cache.clear()
    results, errors = {}, []

    def work(text):
        try:  # each from an address of its own (one address waits for two at most: limits.py)
            r = app.test_client().post("/api/score", json={"text": text},
                                       environ_base={"REMOTE_ADDR": f"10.0.0.{texts.index(text)}"})
            results[text] = (r.status_code, r.get_json())
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(t,)) for t in texts]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not errors
    for text in texts:
        status, doc = results[text]
        assert status == 200
        assert "".join(c["ch"] for c in doc["cells"]) == text
    for text, doc in sequential.items():
        assert [b["logp"] for b in results[text][1]["breaks"]] == [b["logp"] for b in doc["breaks"]]
    merged = client.post("/api/merge", json={"text": texts[0], "cutoff": 100}).get_json()
    assert merged["joined"] == merged["breaks"] == 3


def test_pdf_upload_reaches_the_scorer_as_a_pdf(client, fake_scorer):
    from scorer.service import PdfFile
    data = {"file": (io.BytesIO(b"%PDF-1.4 ..."), "report.pdf")}
    client.post("/api/score", data=data, content_type="multipart/form-data")
    assert isinstance(fake_scorer.calls[-1][1], PdfFile)


@pytest.mark.model
@pytest.mark.parametrize("kind, make, fragment, status", pdfs.BAD_PDFS)
def test_real_bad_pdf_upload_is_a_clear_error(tmp_path, smollm_path, kind, make, fragment, status):
    path = tmp_path / f"{kind}.pdf"
    make(path)
    app = create_app({"TESTING": True, "MODEL": str(smollm_path)})
    r = app.test_client().post("/api/score",
                               data={"file": (io.BytesIO(path.read_bytes()), f"{kind}.pdf")},
                               content_type="multipart/form-data")
    assert r.status_code == status and fragment in r.get_json()["error"]
    assert f"{kind}.pdf" in r.get_json()["error"]  # names the upload, not a temporary file


def test_error_status_follows_the_error_class(app, fake_scorer):
    """A more specific error keeps its family's status: a subclass never falls back to 400."""
    from scorer.errors import TooLarge, UnreadablePdf

    class EncryptedPdf(UnreadablePdf):
        pass

    client = app.test_client()
    for error, status in [(EncryptedPdf("x.pdf is encrypted"), 422), (TooLarge("too long"), 413),
                          (ModelUnavailable("gone"), 503)]:
        fake_scorer.error = error
        r = client.post("/api/score", json={"text": "a"})
        assert (r.status_code, r.get_json()) == (status, {"error": str(error)})


def test_neither_the_web_app_nor_the_local_batch_imports_ray():
    import subprocess
    import sys

    check = ("import sys, app, scorer.batch, scorer.cli; "
             "assert 'ray' not in sys.modules, 'ray was imported'")
    run = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True,
                         cwd=str(Path(__file__).resolve().parent.parent), timeout=60)
    assert run.returncode == 0, run.stderr


@pytest.mark.model
def test_a_second_model_scores_the_same_document_for_the_side_by_side_view(tmp_path, smollm_path):
    """COMPARE_MODEL: a finished job's document (here a PDF: its layout travels) scored by the
    second model as a job of its own, on the same routes; the breaks lie at the same offsets."""
    from scorer.model import default_model_path

    path = tmp_path / "report.pdf"
    pdfs.report(path)
    app = create_app({"TESTING": True, "MODEL": str(smollm_path),
                      "COMPARE_MODEL": str(default_model_path())})
    client = app.test_client()
    assert b'"compare": "' + default_model_path().name.encode() in client.get("/").data

    def finished(url):
        for _ in range(600):
            view = client.get(url).get_json()
            if view["state"] in ("done", "failed", "cancelled"):
                return view
            time.sleep(0.1)
        raise AssertionError(view)

    first = client.post("/api/jobs", data={"file": (io.BytesIO(path.read_bytes()), "report.pdf")},
                        content_type="multipart/form-data").get_json()
    assert finished(first["url"])["state"] == "done"
    r = client.post(first["url"] + "/compare")
    assert r.status_code == 202
    assert finished(r.get_json()["url"])["state"] == "done"
    ours = client.get(first["url"] + "/result").get_json()
    theirs = client.get(r.get_json()["url"] + "/result").get_json()
    assert ours["model"]["file"] == smollm_path.name
    assert theirs["model"]["file"] == default_model_path().name
    assert [b["i"] for b in theirs["breaks"]] == [b["i"] for b in ours["breaks"]]
    assert theirs["source"]["type"] == "pdf" and all(b["layout"] for b in theirs["breaks"])
    assert [b["logp"] for b in theirs["breaks"]] != [b["logp"] for b in ours["breaks"]]
    # cancel and unknown ids reach the second model's jobs too; no second model: 404
    assert client.delete(r.get_json()["url"]).status_code == 200
    alone = create_app({"TESTING": True, "MODEL": str(smollm_path)}).test_client()
    assert alone.post(first["url"] + "/compare").status_code == 404
    assert b'"compare": null' in alone.get("/").data
