"""Drawings compared (pictures, charts, shapes): the body's (or a story's) aligned by kind and paragraph; each pair by
place, size, cropping, the picture's image and a chart's data."""

from __future__ import annotations

from typing import Any

from autodw.eval.judge.alignment import align
from autodw.eval.judge.comparison import Comparison
from autodw.eval.judge.describe import show, snippet

#: what of a drawing is compared (besides its place and, for a picture, its image)
DRAWING_KEYS = ("type", "placement", "width_cm", "height_cm", "width", "height", "alt_text", "wrap", "position",
                "crop", "chart_type", "title", "legend", "categories", "series", "text")
CROP_SIDES = ("left_pct", "top_pct", "right_pct", "bottom_pct")


class DrawingComparison(Comparison):
    """Pictures, charts and shapes."""

    def compare_images(self) -> None:
        """The body's drawings."""
        self.image_list(self.e["images"], self.a["images"])

    def image_list(self, ie: list[dict[str, Any]], ia: list[dict[str, Any]], within: str = "") -> None:
        """Align two lists of drawings (the body's, or a header's or footer's: `within` names it) and compare them:
        place, size, cropping, the picture's image, a chart's data."""
        ke = [(x.get("type"), x.get("paragraph")) for x in ie]
        ka = [(x.get("type"), self.expected_id(x.get("paragraph"))) for x in ia]
        al = align(ke, ka)
        for i, j in sorted(al.pairs + al.moved):
            where = self._image_where(ie, i, within)
            if ke[i][1] != ka[j][1]:
                self.add(where, f"position: expected in {self.describe_e(ie[i].get('paragraph'))}, "
                                f"actual in {self.describe_a(ia[j].get('paragraph'))}")
            parts = self.fields({**ie[i], "crop": _crop(ie[i])}, {**ia[j], "crop": _crop(ia[j])}, DRAWING_KEYS)
            if ie[i].get("image_hash") != ia[j].get("image_hash") and ie[i].get("image_hash") and ia[j].get("image_hash"):
                parts.insert(0, "picture: another image (the picture's content differs)")
            if parts:
                self.add(where, "; ".join(parts))
        for i in al.missing:
            self.add(self._image_where(ie, i, within), "missing: absent from the actual document")
        for j in al.extra:
            x = ia[j]
            self.add(f"extra {x.get('type', 'drawing')}" + (f" {snippet(x['title'])}" if x.get("title") else "") +
                     (f" in {within}" if within else ""),
                     f"unexpected: in {self.describe_a(x.get('paragraph'))}, {show(x.get('width_cm'), '_cm')} x "
                     f"{show(x.get('height_cm'), '_cm')}")

    def _image_where(self, images: list[dict[str, Any]], i: int, within: str = "") -> str:
        x = images[i]
        kind = x.get("type", "drawing")
        number = sum(1 for y in images[: i + 1] if y.get("type") == kind)
        name = f" {snippet(x['title'])}" if x.get("title") else f" {snippet(x['alt_text'])}" if x.get("alt_text") else ""
        return f"{kind} {number}{name} in {within or self.describe_e(x.get('paragraph'))}"


def _crop(image: dict[str, Any]) -> dict[str, float]:
    """A picture's cropping, each side (a side or a picture not cropped: 0 %)."""
    return {side: (image.get("crop") or {}).get(side, 0.0) for side in CROP_SIDES}
