"""A glyph's character read from the name its font gives it, where pdfminer reads none or
a wrong one.

A simple font's character for a code comes from its ToUnicode map or, failing that, from its
encoding: the names of its /Encoding's Differences, over a base encoding that is, for an
embedded font without one, the names its font program puts at each code (its built-in
encoding). pdfminer keeps only the names of Adobe's glyph list, leaving the standard
encoding's letter where it cannot read one (CMSY's "/angbracketleft" at 104 read "h"), and does
not read a compact (CFF, FontFile3) program's names at all, taking the standard encoding for
them: TeX's fonts embedded without a ToUnicode map lose their angle brackets, bullets, Greek
letters and ligatures ("(cid:104)pkg(cid:105)", "lepton-(cid:13)avour") and read an arrow as
")", a brace as "f". Here every name read gives its code's character: Adobe's list, the names
TeX's math fonts use (TEX_NAMES), a delimiter's or operator's size taken off ("parenleftBig",
"summationdisplay"); a compact program's name that says nothing (a circle piece's "a121")
leaves its code unmapped, not read as the standard encoding's letter.

Does not: guess a glyph by its shape, or override a ToUnicode map.
"""

import io
import re
import struct

from pdfminer.encodingdb import name2unicode
from pdfminer.pdffont import CFFFont, PDFSimpleFont, PDFType3Font, Type1FontHeaderParser, getdict
from pdfminer.pdfinterp import PDFResourceManager
from pdfminer.psexceptions import PSEOF
from pdfminer.psparser import PSLiteral, literal_name
from pdfminer.pdftypes import list_value, resolve1, stream_value

# TeX's math fonts' names that Adobe's glyph list lacks, for characters that read as text
TEX_NAMES = {"angbracketleft": "⟨", "angbracketright": "⟩", "lscript": "ℓ", "prime": "′",
             "star": "⋆", "bigstar": "★", "circlecopyrt": "©", "visiblespace": "␣",
             "llbracket": "⟦", "rrbracket": "⟧", "square": "□", "precedesequal": "⪯",
             "followsequal": "⪰", "shortleftarrow": "←", "shortrightarrow": "→",
             "lessmuch": "≪", "greatermuch": "≫", "diamondmath": "⋄"}
SIZED = re.compile(r"(?<=[a-z])(?:big|Big|bigg|Bigg|display|text)$")  # "parenleftbigg"


def glyph_text(name: str):
    """The character a glyph's name says, or None: "bullet" -> "•", "angbracketleftBig" ->
    "⟨", "a45" (a dingbat's number) -> None."""
    for candidate in (name, SIZED.sub("", name)):
        if candidate in TEX_NAMES:
            return TEX_NAMES[candidate]
        try:
            return name2unicode(candidate)
        except Exception:  # noqa: BLE001 -- pdfminer raises KeyError or its own on a name
            continue  # that is not Adobe's or uniXXXX
    return None


def _index(fp) -> list:
    """A CFF INDEX's items (bytes), read in order. Not pdfminer's CFFFont.INDEX: it reads an
    offset size after a count of 0 (an empty INDEX is two bytes: the global subroutines'
    usually are) and reads its items later by seeking the shared file."""
    (count,) = struct.unpack(">H", fp.read(2))
    if not count:
        return []
    size = fp.read(1)[0]
    offsets = [int.from_bytes(fp.read(size), "big") for _ in range(count + 1)]
    data = fp.read(offsets[-1] - 1)
    return [data[a - 1:b - 1] for a, b in zip(offsets, offsets[1:])]


def cff_names(data: bytes) -> dict:
    """code -> glyph name of a CFF font program's own encoding; empty where it uses a
    predefined one (standard or expert) or a predefined character set."""
    fp = io.BytesIO(data)
    fp.seek(data[2])  # the header's size
    _index(fp)  # the font's name
    top = getdict(_index(fp)[0])
    strings = _index(fp)
    standard = CFFFont.STANDARD_STRINGS

    def name(sid):
        return standard[sid] if sid < len(standard) else strings[sid - len(standard)].decode(
            "latin-1")

    (charset,), (encoding,), (glyphs,) = (top.get(op, [0]) for op in (15, 16, 17))
    if charset <= 2 or encoding <= 1:
        return {}
    fp.seek(glyphs)
    count = len(_index(fp))
    fp.seek(charset)
    kind, sids = fp.read(1)[0], [0]  # glyph 0 is .notdef
    if kind == 0:
        sids += struct.unpack(f">{count - 1}H", fp.read(2 * (count - 1)))
    while len(sids) < count:  # formats 1 and 2: ranges of names
        (first,) = struct.unpack(">H", fp.read(2))
        left = fp.read(1)[0] if kind == 1 else struct.unpack(">H", fp.read(2))[0]
        sids += range(first, first + left + 1)
    fp.seek(encoding)
    kind = fp.read(1)[0]
    if kind & 0x7F == 0:
        codes = fp.read(fp.read(1)[0])
    else:  # format 1: ranges of codes
        codes = []
        for _ in range(fp.read(1)[0]):
            first, left = fp.read(2)
            codes += range(first, first + left + 1)
    out = {code: name(sids[gid]) for gid, code in enumerate(codes, 1) if gid < len(sids)}
    if kind & 0x80:  # supplements: more codes for glyphs already named
        for _ in range(fp.read(1)[0]):
            code, sid = struct.unpack(">BH", fp.read(3))
            out[code] = name(sid)
    return out


def type1_names(data: bytes) -> dict:
    """code -> glyph name of a Type 1 font program's own encoding (its clear-text part)."""
    parser, out = Type1FontHeaderParser(io.BytesIO(data)), {}
    while True:
        try:
            code, name = parser.nextobject()
        except PSEOF:
            return out
        out[code] = name


def glyph_names(spec) -> tuple:
    """(code -> glyph name, own) of a simple font: its font program's own encoding where the
    font has no /Encoding or one without a base, the /Encoding's Differences over it; `own`:
    the names are a compact (CFF) program's own encoding alone, the font having no /Encoding
    (pdfminer read those codes by the standard encoding)."""
    encoding = resolve1(spec.get("Encoding"))
    names, own = {}, False
    if encoding is None or isinstance(encoding, dict) and "BaseEncoding" not in encoding:
        program = resolve1(spec.get("FontDescriptor")) or {}
        own = encoding is None and "FontFile3" in program
        if "FontFile3" in program:
            names = cff_names(stream_value(program["FontFile3"]).get_data())
        elif "FontFile" in program:
            stream = stream_value(program["FontFile"])
            names = type1_names(stream.get_data()[:int(resolve1(stream.get("Length1", 0)))])
    if isinstance(encoding, dict):
        code = 0
        for item in list_value(encoding.get("Differences", [])):
            item = resolve1(item)
            if isinstance(item, int):
                code = item
            elif isinstance(item, PSLiteral):
                names[code] = literal_name(item)
                code += 1
    return names, own


class NamedGlyphs(PDFResourceManager):
    """pdfminer's fonts, each simple font's codes given the characters their glyphs' names
    say (glyph_names): pdfminer keeps the standard encoding's letter at a code whose name it
    cannot read ("/angbracketleft" at 104 read "h") and reads a compact program by the
    standard encoding; there a name that says nothing leaves its code unmapped, not read as
    the standard encoding's letter. A ToUnicode map still comes first (pdfminer's to_unichr)."""

    def get_font(self, objid, spec):
        new = not (objid and objid in self._cached_fonts)
        font = super().get_font(objid, spec)
        if new and isinstance(font, PDFSimpleFont) and not isinstance(font, PDFType3Font):
            try:
                names, own = glyph_names(spec)
            except Exception:  # noqa: BLE001 -- a broken font program: pdfminer's reading stands
                return font
            font.cid2unicode = dict(font.cid2unicode)  # pdfminer shares an encoding's table
            for code, name in names.items():
                text = glyph_text(name) if isinstance(code, int) else None
                if text:
                    font.cid2unicode[code] = text
                elif own:  # the font's glyph there is not the standard encoding's letter
                    font.cid2unicode.pop(code, None)
        return font
