"""New list items (insert_list, set_list_format) take the document's own list style (List Bullet, List Number, by
w:name) when it has one, and "List Paragraph" when it has none; the outputs add no Open XML SDK error."""

from __future__ import annotations

import pytest

from autodw.analysis.state import extract_state
from autodw.analysis.state.context import StateContext
from autodw.analysis.validation import added, validate_all
from autodw.apis import execute
from autodw.core.document import WordDocument
from autodw.apis.ooxml.elements import insert_ordered, make
from autodw.core.xml import qn
from tests.conftest import ROOT, corpus_file

GENERATED = ROOT / "autodw" / "dwbench" / "data" / "docs" / "manual-zh-1.docx"  # python-docx-made: List Bullet p13-p15


def _paras(doc: WordDocument, ids) -> list[dict]:
    by_id = {p["id"]: p for p in extract_state(doc)["paragraphs"]}
    return [by_id[i] for i in ids]


def _direct_num_pr(doc: WordDocument, pid: str) -> bool:
    return doc.find(pid, "p").find(f"{qn('w:pPr')}/{qn('w:numPr')}") is not None


def test_a_bullet_list_beside_list_bullet_items_is_list_bullet():
    doc = WordDocument.open(GENERATED)
    r = execute(doc, "insert_list", {"items": ["Fill the tank", "Close the lid"], "position": {"after": "p15"},
                                     "kind": "bullet"})
    old, *new = _paras(doc, ["p13", *r.created])
    assert old["style"] == "List Bullet" and all(p["style"] == "List Bullet" for p in new)
    assert all(p["list"]["num_id"] == old["list"]["num_id"] and p["list"]["indent"] == old["list"]["indent"] for p in new)
    assert not any(_direct_num_pr(doc, pid) for pid in r.created)  # numbered by the style, as the items beside them
    assert '"List Bullet"' in r.message


def test_a_numbered_list_takes_list_number_and_its_family_numbered_afresh():
    """No numbered item yet: the counterpart of the List Bullet the document's bullets use; nested items List
    Number 2 (the style family, as Word nests them), each nested run and the list numbered from its own start."""
    doc = WordDocument.open(GENERATED)
    items = ["a", {"text": "b", "level": 1}, {"text": "c", "level": 1}, "d", {"text": "e", "level": 1}]
    r = execute(doc, "insert_list", {"items": items, "position": {"after": "p17"}, "kind": "numbered", "start": 3})
    new = _paras(doc, r.created)
    assert [p["style"] for p in new] == ["List Number", "List Number 2", "List Number 2", "List Number", "List Number 2"]
    assert [p["list"]["label"] for p in new] == ["3.", "1.", "2.", "4.", "1."]
    again = execute(doc, "insert_list", {"items": ["x"], "position": "end", "kind": "numbered"}).created
    assert _paras(doc, again)[0]["list"]["label"] == "1."  # a new list starts afresh, not after "4."


def test_a_new_numbered_list_and_the_documents_own_count_apart():
    """report.docx's List Number items p34-p36 come after the new list: they still count from 1 (a new instance of
    the style's definition would share its count, and they would go on from the new list's)."""
    doc = WordDocument.open(ROOT / "examples" / "report.docx")
    new = execute(doc, "insert_list", {"items": ["a", "b"], "position": {"after": "p2"}, "kind": "numbered"}).created
    assert [p["list"]["label"] for p in _paras(doc, [*new, "p34", "p35"])] == ["1.", "2.", "1.", "2."]
    assert {p["style"] for p in _paras(doc, new)} == {"List Number"}


def test_set_list_format_takes_the_documents_list_style():
    doc = WordDocument.open(GENERATED)
    execute(doc, "set_list_format", {"paragraphs": ["p9", "p10"], "kind": "bullet"})
    execute(doc, "set_list_format", {"paragraphs": ["p17"], "kind": "numbered"})
    execute(doc, "set_list_format", {"paragraphs": ["p19"], "kind": "numbered", "number_format": "lowerRoman"})
    p9, p10, p17, p19 = _paras(doc, ["p9", "p10", "p17", "p19"])
    assert p9["style"] == p10["style"] == "List Bullet" and p9["list"]["kind"] == "bullet"
    assert p17["style"] == "List Number" and p17["list"]["label"] == "1."
    assert p19["style"] == "List Paragraph" and p19["list"]["format"] == "lowerRoman"  # a look the style lacks


def test_list_styles_are_found_by_name_not_id():
    """A localized document's list styles have other ids (Word writes e.g. "a7"): the name finds them."""
    doc = WordDocument.open(GENERATED)
    styles = doc.part.styles.element
    renamed = {}
    for s in styles.iterchildren(qn("w:style")):
        if s.find(qn("w:name")).get(qn("w:val")).startswith("List "):
            renamed[s.get(qn("w:styleId"))] = f"a{len(renamed) + 70}"
            s.set(qn("w:styleId"), renamed[s.get(qn("w:styleId"))])
    for ref in [*doc.body.iter(qn("w:pStyle")), *styles.iter(qn("w:basedOn"), qn("w:next"), qn("w:pStyle"))]:
        ref.set(qn("w:val"), renamed.get(ref.get(qn("w:val")), ref.get(qn("w:val"))))
    r = execute(doc, "insert_list", {"items": ["a", "b"], "position": {"after": "p15"}, "kind": "bullet"})
    assert {p["style"] for p in _paras(doc, r.created)} == {"List Bullet"}
    assert doc.find(r.created[0], "p").find(f"{qn('w:pPr')}/{qn('w:pStyle')}").get(qn("w:val")) == renamed["ListBullet"]
    r = execute(doc, "insert_list", {"items": ["c"], "position": "end", "kind": "numbered"})
    assert _paras(doc, r.created)[0]["style"] == "List Number"


def test_a_corpus_file_follows_the_list_beside_else_most_of_its_lists():
    """docx4j__headers_footers.docx: most bullets List Bullet, a few and all numbered items List Paragraph with
    their own numbering."""
    path = corpus_file("docx4j__headers_footers.docx")
    doc = WordDocument.open(path)
    end = execute(doc, "insert_list", {"items": ["a", "b"], "position": "end", "kind": "bullet"}).created
    numbered = execute(doc, "insert_list", {"items": ["c"], "position": "end", "kind": "numbered"}).created
    beside = execute(doc, "insert_list", {"items": ["d"], "position": {"after": "p8"}, "kind": "bullet"}).created
    made = execute(doc, "insert_paragraph", {"text": "e", "position": {"after": "p130"}}).created
    execute(doc, "set_list_format", {"paragraphs": made, "kind": "bullet"})
    styles = [p["style"] for p in _paras(doc, [*end, *numbered, *beside, *made])]
    assert styles == ["List Bullet", "List Bullet", "List Paragraph", "List Paragraph", "List Bullet"]


@pytest.mark.parametrize("source", ["new", "docx4j__Docx4j_GettingStarted.docx"])
def test_a_document_without_list_styles_keeps_list_paragraph(source):
    """A blank document (its template defines List Bullet, but no list uses it) and a Word document whose lists are
    List Paragraph with their own numbering: new items are "List Paragraph"."""
    doc = WordDocument.new() if source == "new" else WordDocument.open(corpus_file(source))
    if source == "new":
        execute(doc, "insert_paragraph", {"text": "Plain", "position": "end"})
    plain = extract_state(doc)["paragraphs"][-1]["id"]
    bullets = execute(doc, "insert_list", {"items": ["a", {"text": "b", "level": 1}], "position": "end", "kind": "bullet"})
    numbers = execute(doc, "insert_list", {"items": ["c"], "position": "end", "kind": "numbered"})
    execute(doc, "set_list_format", {"paragraphs": [plain], "kind": "numbered"})
    new = _paras(doc, [*bullets.created, *numbers.created, plain])
    assert {p["style"] for p in new} == {"List Paragraph"} and all(p.get("list") for p in new)
    assert "list style" not in bullets.message
    execute(doc, "remove_list", {"paragraphs": numbers.created})
    assert _paras(doc, numbers.created)[0]["style"] == "Normal"


def test_outputs_add_no_open_xml_sdk_error():
    generated, corpus = WordDocument.open(GENERATED), WordDocument.open(corpus_file("docx4j__headers_footers.docx"))
    for doc in (generated, corpus):
        execute(doc, "insert_list", {"items": ["a", {"text": "b", "level": 1}, "c"], "position": "end", "kind": "numbered"})
        execute(doc, "insert_list", {"items": ["d", "e"], "position": "end", "kind": "bullet"})
    execute(generated, "set_list_format", {"paragraphs": ["p9", "p10"], "kind": "numbered"})
    execute(generated, "set_list_format", {"paragraphs": ["p13"], "kind": "numbered", "restart": True, "start": 4})
    execute(corpus, "set_list_format", {"paragraphs": ["p128", "p129"], "kind": "numbered"})
    sources = [GENERATED, corpus_file("docx4j__headers_footers.docx")]
    findings = validate_all([*sources, generated.to_bytes(keep_ids=False), corpus.to_bytes(keep_ids=False)], workers=2)
    for before, after in zip(findings[:2], findings[2:]):
        assert [f for f in added(before, after) if f.is_error] == []


def _labels(doc: WordDocument, ids) -> list[tuple[str, str | None]]:
    return [(p["style"], (p.get("list") or {}).get("label")) for p in _paras(doc, ids)]


MINUTES = ROOT / "autodw" / "dwbench" / "data" / "docs" / "minutes-zh-1.docx"


def test_a_paragraph_inserted_with_a_list_style_beside_a_list_of_its_kind_continues_it():
    """The writers' case: p38 ends a numbered list of its own numbering (a copy, so it counts apart from the style's);
    a "List Number" paragraph after it is "3.", not a new list's "1."; before the list's first item it takes "1.";
    apart from any list, or after a bullet list, it keeps its style's own numbering (today's behaviour)."""
    doc = WordDocument.open(GENERATED)
    made = execute(doc, "insert_list", {"items": ["a", "b"], "position": {"after": "p17"}, "kind": "numbered"}).created
    assert made[-1] == "p38"
    after = execute(doc, "insert_paragraph", {"text": "c", "position": {"after": "p38"}, "style": "List Number"})
    before = execute(doc, "insert_paragraph", {"text": "z", "position": {"before": made[0]}, "style": "List Number"})
    alone = execute(doc, "insert_paragraph", {"text": "x", "position": {"after": "p19"}, "style": "List Number"})
    bullets = execute(doc, "insert_paragraph", {"text": "y", "position": {"after": "p15"}, "style": "List Number"})
    assert _labels(doc, [*before.created, *made, *after.created]) == [("List Number", f"{n}.") for n in range(1, 5)]
    assert "continuing the list" in after.message and "continuing" not in alone.message + bullets.message
    num = {p["id"]: p["list"]["num_id"] for p in _paras(doc, [*made, *after.created, *alone.created, *bullets.created])}
    assert num[after.created[0]] == num["p38"] and num[alone.created[0]] != num["p38"]
    assert not _direct_num_pr(doc, alone.created[0]) and not _direct_num_pr(doc, bullets.created[0])


def test_list_number_inserted_or_applied_after_set_list_format_items_joins_them():
    """minutes-zh-1: items numbered by set_list_format (a numbering of their own) and its List Bullet agenda."""
    doc = WordDocument.open(MINUTES)
    execute(doc, "set_list_format", {"paragraphs": ["p9", "p10", "p11"], "kind": "numbered"})
    more = execute(doc, "insert_paragraph", {"text": "d", "position": {"after": "p11"}, "style": "List Number"}).created
    assert [label for _, label in _labels(doc, ["p9", "p10", "p11", *more])] == ["1.", "2.", "3.", "4."]
    applied = execute(doc, "insert_paragraph", {"text": "e", "position": {"after": more[0]}}).created
    execute(doc, "apply_style", {"paragraphs": applied, "style": "List Number"})
    assert _labels(doc, applied) == [("List Number", "5.")]


def test_insert_list_beside_a_list_of_its_kind_continues_it_unless_start_is_given():
    doc = WordDocument.open(GENERATED)
    first = execute(doc, "insert_list", {"items": ["a", "b"], "position": {"after": "p17"}, "kind": "numbered",
                                         "number_format": "lowerRoman"}).created
    more = execute(doc, "insert_list", {"items": ["c", {"text": "c1", "level": 1}], "position": {"after": first[-1]},
                                        "kind": "numbered"})
    fresh = execute(doc, "insert_list", {"items": ["x"], "position": {"after": more.created[-1]}, "kind": "numbered",
                                         "start": 1}).created
    assert [label for _, label in _labels(doc, [*first, *more.created, *fresh])] == ["i.", "ii.", "iii.", "a.", "1."]
    assert "continuing the list beside it" in more.message


def test_joined_lists_add_no_open_xml_sdk_error():
    doc = WordDocument.open(GENERATED)
    made = execute(doc, "insert_list", {"items": ["a", "b"], "position": {"after": "p17"}, "kind": "numbered"}).created
    execute(doc, "insert_paragraph", {"text": "c", "position": {"after": made[-1]}, "style": "List Number"})
    execute(doc, "insert_list", {"items": ["d", {"text": "d1", "level": 1}], "position": {"before": made[0]}, "kind": "numbered"})
    original, edited = validate_all([GENERATED, doc.to_bytes(keep_ids=False)], workers=2)
    assert [f for f in added(original, edited) if f.is_error] == []


HEBREW = "oxpt__Hebrew-02.docx"  # bullet items p47-p51 in "Normal" with a "-" numbering of their own


def test_an_item_continuing_a_list_takes_the_style_of_the_item_beside_it():
    """As Word's Enter at the end of a list item: new items joining the Normal-styled list stay Normal (not "List
    Paragraph"), inserted (after its last item or before its first) or made items (the paragraph after it)."""
    path = corpus_file(HEBREW)
    doc = WordDocument.open(path)
    item = _paras(doc, ["p51"])[0]
    after = execute(doc, "insert_list", {"items": ["a", {"text": "b", "level": 1}], "position": {"after": "p51"},
                                         "kind": "bullet"}).created
    before = execute(doc, "insert_list", {"items": ["z"], "position": {"before": "p47"}, "kind": "bullet"}).created
    made = execute(doc, "insert_paragraph", {"text": "c", "position": {"after": after[-1]}}).created
    execute(doc, "set_list_format", {"paragraphs": made, "kind": "bullet"})
    new = _paras(doc, [*before, *after, *made])
    assert [p["style"] for p in new] == ["Normal"] * 4
    assert [(p["list"]["num_id"], p["list"]["level"]) for p in new] == [(item["list"]["num_id"], lvl) for lvl in (0, 0, 1, 0)]
    assert not any(doc.find(pid, "p").find(f"{qn('w:pPr')}/{qn('w:pStyle')}") is not None for pid in [*before, *after, *made])
    original, edited = validate_all([path, doc.to_bytes(keep_ids=False)], workers=2)
    assert [f for f in added(original, edited) if f.is_error] == []


def test_new_bullets_apart_from_any_list_look_like_the_documents_directly_numbered_bullets():
    """Word's bullet button gives the document's bullet: the Hebrew file's bullets are "Normal" paragraphs numbered
    "-" directly, so bullets made of p43-p44 or inserted after p40 are too (a new list instance of that definition,
    numId 3 as a new definition got), not "List Paragraph" with "•". Numbered lists are unchanged."""
    path = corpus_file(HEBREW)
    doc = WordDocument.open(path)
    item = _paras(doc, ["p51"])[0]["list"]
    execute(doc, "set_list_format", {"paragraphs": ["p43", "p44"], "kind": "bullet"})
    made = _paras(doc, ["p43", "p44"])
    assert [(p["style"], p["list"]["level_text"], p["list"]["num_id"]) for p in made] == [("Normal", "-", 3)] * 2
    again = WordDocument.open(path)
    r = execute(again, "insert_list", {"items": ["a", {"text": "b", "level": 1}], "position": {"after": "p40"},
                                       "kind": "bullet"})
    numbers = execute(again, "insert_list", {"items": ["c"], "position": "end", "kind": "numbered"})
    new = _paras(again, [*r.created, *numbers.created])
    assert [(p["style"], p["list"]["kind"], p["list"]["level"]) for p in new] == \
        [("Normal", "bullet", 0), ("Normal", "bullet", 1), ("List Paragraph", "numbered", 0)]
    assert new[0]["list"]["level_text"] == "-" and new[0]["list"]["num_id"] == 3 != item["num_id"]
    numbering = StateContext(again).numbering
    assert numbering.definition("3") == numbering.definition(str(item["num_id"]))
    findings = validate_all([path, doc.to_bytes(keep_ids=False), again.to_bytes(keep_ids=False)], workers=2)
    assert [f for after in findings[1:] for f in added(findings[0], after) if f.is_error] == []


def _small_lists() -> tuple[WordDocument, dict[str, str]]:
    """A new document: "Intro", bullets b1-b2, "Middle", numbered items n1-n3 (each list numbered directly), "Tail"."""
    doc = WordDocument.new()
    ids = {text: execute(doc, "insert_paragraph", {"text": text, "position": "end"}).created[0]
           for text in ("Intro", "b1", "b2", "Middle", "n1", "n2", "n3", "Tail")}
    execute(doc, "set_list_format", {"paragraphs": [ids["b1"], ids["b2"]], "kind": "bullet"})
    execute(doc, "set_list_format", {"paragraphs": [ids["n1"], ids["n2"], ids["n3"]], "kind": "numbered"})
    return doc, ids


def _num_pr(doc: WordDocument, pid: str) -> tuple[str, str] | None:
    num = doc.find(pid, "p").find(f"{qn('w:pPr')}/{qn('w:numPr')}")
    return None if num is None else (num.find(qn("w:numId")).get(qn("w:val")), num.find(qn("w:ilvl")).get(qn("w:val")))


def test_items_without_a_kind_continue_the_list_beside_them_else_are_bullets():
    """No `kind`: items right after (or before) a numbered item are numbered items of its list (the numbering goes
    on), beside a bullet they are bullets of its list; away from any list they are bullets, the default."""
    doc, ids = _small_lists()
    numbers = _paras(doc, [ids["n1"]])[0]["list"]
    after = execute(doc, "insert_list", {"items": ["x"], "position": {"after": ids["n2"]}}).created
    before = execute(doc, "insert_list", {"items": ["y"], "position": {"before": ids["n1"]}}).created
    bullet = execute(doc, "insert_list", {"items": ["z"], "position": {"after": ids["b2"]}}).created
    alone = execute(doc, "insert_list", {"items": ["w"], "position": "end"}).created
    new = _paras(doc, [*before, ids["n1"], ids["n2"], *after, ids["n3"], *bullet, *alone])
    assert [(p["list"]["kind"], p["list"]["label"]) for p in new[:5]] == [("numbered", f"{n}.") for n in range(1, 6)]
    assert {p["list"]["num_id"] for p in new[:5]} == {numbers["num_id"]}
    assert new[5]["list"]["kind"] == "bullet" and new[5]["list"]["num_id"] == _paras(doc, [ids["b1"]])[0]["list"]["num_id"]
    assert new[6]["list"]["kind"] == "bullet" and new[6]["list"]["num_id"] not in {numbers["num_id"], new[5]["list"]["num_id"]}


def test_items_without_a_kind_after_a_numbered_item_in_a_table_cell_continue_its_list():
    """The writers' case: docxcompose__aatmay.docx's "Stakeholders" cell, numbered items p46-p49 (numId 5) of a
    document whose other lists are bullets: an item inserted after p48 with no kind is its list's next item."""
    doc = WordDocument.open(corpus_file("docxcompose__aatmay.docx"))
    assert _num_pr(doc, "p48") == ("5", "0")
    r = execute(doc, "insert_list", {"items": ["Tenants"], "position": {"after": "p48"}})
    assert _num_pr(doc, r.created[0]) == ("5", "0") and "continuing the list beside it" in r.message



def _run_looks(doc: WordDocument, ids) -> list[list[dict]]:
    return [[{k: v for k, v in run.items() if k != "text"} for run in p.get("runs", [])] for p in _paras(doc, ids)]


def test_items_continuing_a_list_take_the_run_formatting_of_the_item_beside_them():
    """As text typed into the item: after an item, the formatting of its text's end; before the list's first item,
    of its start (nested items too). A new list away from any item keeps the default look."""
    doc, ids = _small_lists()
    execute(doc, "set_text_format", {"paragraphs": ids["n2"], "font": "Georgia", "color": "1F4E79"})
    execute(doc, "set_text_format", {"paragraphs": ids["n1"], "span": {"match": "n"}, "italic": True})
    after = execute(doc, "insert_list", {"items": ["x", {"text": "y", "level": 1}], "position": {"after": ids["n2"]},
                                         "kind": "numbered"}).created
    before = execute(doc, "insert_list", {"items": ["z"], "position": {"before": ids["n1"]}, "kind": "numbered"}).created
    alone = execute(doc, "insert_list", {"items": ["w"], "position": "end", "kind": "numbered"}).created
    assert _run_looks(doc, [*after, *before, *alone, ids["n1"]]) == \
        [[{"font": "Georgia", "color": "1F4E79"}]] * 2 + [[{"italic": True}], [{}], [{"italic": True}, {}]]
    assert _paras(doc, [ids["n2"]])[0]["runs"] == [{"text": "n2", "font": "Georgia", "color": "1F4E79"}]


def test_an_item_added_to_a_list_in_a_table_cell_takes_its_items_font_and_colour():
    """The writers' case: p48's text is Source Serif Pro in 000000; the numbered item inserted after it too."""
    doc = WordDocument.open(corpus_file("docxcompose__aatmay.docx"))
    r = execute(doc, "insert_list", {"items": ["Tenants"], "position": {"after": "p48"}, "kind": "numbered"})
    rpr = doc.find(r.created[0], "p").find(f"{qn('w:r')}/{qn('w:rPr')}")
    assert rpr is not None and rpr.find(qn("w:rFonts")).get(qn("w:ascii")) == "Source Serif Pro"
    assert rpr.find(qn("w:color")).get(qn("w:val")) == "000000"


def test_items_continuing_a_list_take_the_paragraph_look_of_the_item_beside_them():
    """As Word's Enter at an item's end: its spacing, alignment, paragraph mark formatting and (at its depth) its
    indents; not its page break before, nor its tracked-change marks. Away from any list: none of it."""
    doc, ids = _small_lists()
    ppr = doc.find(ids["n2"], "p").find(qn("w:pPr"))
    insert_ordered(ppr, make("w:pageBreakBefore"))
    for tag, attrs in (("w:spacing", {"w_after": "240"}), ("w:ind", {"w_left": "1440", "w_hanging": "360"}),
                       ("w:jc", {"w_val": "center"})):
        insert_ordered(ppr, make(tag, **attrs))
    mark = insert_ordered(ppr, make("w:rPr"))
    mark.append(make("w:ins", w_id="90", w_author="A"))
    insert_ordered(mark, make("w:b"))
    after = execute(doc, "insert_list", {"items": ["x", {"text": "y", "level": 1}], "position": {"after": ids["n2"]},
                                         "kind": "numbered"}).created
    alone = execute(doc, "insert_list", {"items": ["w"], "position": "end", "kind": "numbered"}).created

    def look(pid):
        own = doc.find(pid, "p").find(qn("w:pPr"))
        return [c.tag.split("}")[1] for c in own], [c.tag.split("}")[1] for c in own.find(qn("w:rPr"))]
    assert look(after[0]) == (["pStyle", "numPr", "spacing", "ind", "jc", "rPr"], ["b"])
    assert look(after[1]) == (["pStyle", "numPr", "spacing", "jc", "rPr"], ["b"])
    assert doc.find(alone[0], "p").find(f"{qn('w:pPr')}/{qn('w:spacing')}") is None
    assert [_num_pr(doc, pid) for pid in after] == [(_num_pr(doc, ids["n2"])[0], "0"), (_num_pr(doc, ids["n2"])[0], "1")]
    original, edited = validate_all([WordDocument.new().to_bytes(), doc.to_bytes(keep_ids=False)], workers=2)
    assert [f for f in added(original, edited) if f.is_error] == []
