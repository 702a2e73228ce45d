"""A page set sideways, turned upright: a landscape table or figure on a portrait page (LaTeX's
sidewaystable, a journal's wide table) draws its glyphs turned a quarter, and read as they lie
each word became a line of its own, spelled backwards ("snoitavresbo"). Where most of a page's
glyphs are turned one way, they and the page's drawings are read in a frame turned with them,
where they stand upright; the page's other glyphs (its running head, its number) are read as
they are.

Does not: turn a page whose turned glyphs are few (a table's turned column heads, a figure's axis
label: figures.py takes those), nor one turned upside down or slanted.
"""

from collections import Counter

from pdfplumber.page import DerivedPage

from .lines import page_glyphs

SIDEWAYS_SHARE = 0.5  # a page is set sideways when this share of its glyphs or more is turned,
ONE_WAY = 0.9  # this share of them or more the same way
LEFT, RIGHT = 1, -1  # turned a quarter left: the text reads up the page; right: down it


def quarter_turn(ch) -> int:
    """LEFT or RIGHT where a glyph is turned a quarter that way (its matrix's first column points
    up or down the page), else 0."""
    if ch.get("upright", True) or not ch.get("matrix"):
        return 0
    a, b = ch["matrix"][:2]
    if abs(a) * 10 > abs(b):  # not a quarter turn within a tenth: slanted, or upside down
        return 0
    return LEFT if b > 0 else RIGHT


def sideways(page) -> int:
    """LEFT or RIGHT where `page` is set sideways that way, else 0."""
    if all(ch.get("upright", True) for ch in page.chars):  # nearly every page: one look
        return 0
    glyphs = page_glyphs(page)
    turns = Counter(quarter_turn(ch) for ch in glyphs)
    turned = turns[LEFT] + turns[RIGHT]
    if not glyphs or turned < SIDEWAYS_SHARE * len(glyphs):
        return 0
    way = LEFT if turns[LEFT] >= turns[RIGHT] else RIGHT
    return way if turns[way] >= ONE_WAY * turned else 0


def upright_part(page, way):
    """`page` less its glyphs turned `way` and its drawings: what stands upright on it."""
    return page.filter(lambda obj: obj.get("object_type") == "char" and quarter_turn(obj) != way)


class TurnedPage(DerivedPage):
    """`page`'s glyphs turned `way` and its drawings, in a frame turned with them: the page's
    bottom edge (LEFT) or top edge (RIGHT) is the frame's left one, so the turned text reads
    left to right and its lines follow down the frame. Boxes, points and baselines are moved
    into the frame; everything else about an object is as it was."""

    def __init__(self, page, way):
        self.way, self.frame = way, tuple(float(v) for v in page.bbox)
        x0, top, x1, bottom = self.frame
        self.bbox = (0.0, 0.0, bottom - top, x1 - x0)
        super().__init__(page)

    @property
    def objects(self) -> dict:
        if not hasattr(self, "_objects"):
            self._objects = {kind: [self._turned(obj) for obj in objs
                                    if kind != "char" or quarter_turn(obj) == self.way]
                             for kind, objs in self.parent_page.objects.items()}
        return self._objects

    def _point(self, x, y) -> tuple:
        """A point (x, top) of the page in the turned frame."""
        x0, top, x1, bottom = self.frame
        return (bottom - y, x - x0) if self.way == LEFT else (y - top, x1 - x)

    def _turned(self, obj) -> dict:
        (ax, atop), (bx, btop) = (self._point(obj["x0"], obj["top"]),
                                  self._point(obj["x1"], obj["bottom"]))
        x0, x1, top, bottom = min(ax, bx), max(ax, bx), min(atop, btop), max(atop, btop)
        height = self.bbox[3]
        out = {**obj, "x0": x0, "x1": x1, "top": top, "bottom": bottom, "width": x1 - x0,
               "height": bottom - top, "y0": height - bottom, "y1": height - top,
               "doctop": obj.get("doctop", obj["top"]) - obj["top"] + top}
        if obj.get("pts"):
            out["pts"] = [self._point(x, y) for x, y in obj["pts"]]
        if obj.get("object_type") == "char":
            size = bottom - top  # an upright glyph's box is its size high; pdfminer's size
            # for a turned one is its box's height on the page: its advance
            baseline = self._point(obj["matrix"][4], 0.0)[1]  # the turned line's baseline
            out.update(upright=True, size=size, matrix=(size, 0, 0, size, x0, height - baseline))
        return out
