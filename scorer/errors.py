"""Every error the engine raises on purpose: a message safe to show a user, plus how to say it.

Each class carries its HTTP status (the web app answers `{"error": message}` with it) and its
exit status (the CLI prints `error: message` on stderr and exits with it). A subclass inherits
both, so a more specific error never falls back to a generic answer.
Does not: catch anything, or know about Flask or argparse.
"""


class ScorerError(Exception):
    """Bad input the user can fix: 400, exit status 2."""
    status = 400
    exit_code = 2


class BadInput(ScorerError):
    """A request or argument that cannot be used as it is (400)."""


class TooLarge(ScorerError):
    """Text, upload or PDF over a configured limit (413)."""
    status = 413


class UnreadablePdf(ScorerError):
    """Not a PDF we can read text from: empty, corrupt, encrypted, image-only (422)."""
    status = 422


class TooMany(ScorerError):
    """One client asks for more at once than its share: wait for what it has under way (429)."""
    status = 429


class Busy(ScorerError):
    """Too many documents queued or running: try again later (503)."""
    status = 503


class ModelUnavailable(ScorerError):
    """The model could not be found or loaded: the server's fault, not the request's (503)."""
    status = 503


class PagesLeftOut(UserWarning):
    """No error: a PDF was read less the pages whose content pdfminer could not parse, and
    their text is missing. The Python API warns with it (warnings.warn: a pipeline may turn it
    into an error with warnings.simplefilter("error", scorer.PagesLeftOut)); the CLI, the batch
    and the page say it their own way, from the source's `warnings`."""
