"""The blocks holding a request's distinctive words, and the planner's windowed view centred on them."""

from __future__ import annotations

import io
import re

import docx

from autodw.agent import views
from autodw.agent.distinctive import distinctive_blocks, drawings_described, names_held, ranked_blocks
from autodw.agent.records import InstructionResult
from autodw.analysis.state import extract_state
from autodw.core.document import WordDocument


def _long_document(target: str, filler: str = "The team met on Monday and made the same plans as before.") -> dict:
    """A 60-paragraph document whose paragraph p45 is `target`, the others `filler` (with a number each)."""
    texts = [f"{filler} Item {n}." for n in range(60)]
    texts[45] = target
    return {"paragraphs": [{"id": f"p{n}", "index": n, "text": t, "style": "Normal", "runs": []}
                           for n, t in enumerate(texts)], "tables": [], "images": []}


def test_a_paragraph_sharing_rare_words_is_found_and_everyday_words_are_not():
    state = _long_document("Case 3 (negative top margin) is still TODO.")
    assert distinctive_blocks(state, "Case 3 (negative top margin) is done now, mark it like the others.") == ["p45"]
    assert distinctive_blocks(state, "Make the team plans the same as before.") == []  # in every paragraph, or none


def test_a_code_token_is_split_and_one_alone_is_enough():
    state = _long_document("Ref BH.ADM.014: retention of records.")
    assert distinctive_blocks(state, "Bold the BH.ADM.014 line please") == ["p45"]


def test_a_code_of_a_number_and_a_letter_is_one_word_whatever_script_its_letter_looks_like():
    """dwh-302#4 ("附件1-A那张申请表" for the form headed "Приложение 1-А", typed with a Cyrillic А)."""
    state = _long_document("Приложение 1-\u0410 к Административному регламенту")
    assert distinctive_blocks(state, "好，接下来填后面附件1-A那张不招标的申请表") == ["p45"]
    assert distinctive_blocks(state, "好，接下来填后面附件1-B那张申请表") == []


def test_a_word_glued_to_a_number_is_read_as_the_word_too():
    """hand dev-thirteenth dwh-228#5: "the zip code glued to the city name (Livermore, New Orleans)" names the
    line "599 Livermore94550"."""
    state = _long_document("599 Livermore94550")
    assert [b for b, *_ in ranked_blocks(state, "the zip code is glued to the city name (Livermore), put a space in")] \
        == ["p45"]


def test_after_and_out_are_function_words():
    """hand dev-thirteenth dwh-228#6: "the GS-12 line has a stray closing bracket after GS-12, take it out": the
    blocks saying "after" or "out" and GS-12 are not the few that hold the request's words together."""
    texts = ["Filler text number one."] * 40
    texts[5] = "(  ) grade GS-12  )  (respond to factors B1 - B5)"
    texts[7] = "(  ) grade GS-11 (with promotion potential to GS-12)"
    texts[20:24] = ["GS-12 staff serve after a review.", "GS-12 staff go out often.",
                    "GS-12 pay begins after a year.", "After GS-12, go out."]
    texts[30:36] = ["A grade of GS-9 is a step."] * 6
    state = {"paragraphs": [{"id": f"p{n}", "index": n, "text": t, "style": "Normal", "runs": []}
                            for n, t in enumerate(texts)], "tables": [], "images": []}
    ranked = [b for b, *_ in ranked_blocks(state, "the GS-12 line of the grade list has a bracket after GS-12, take it out")]
    assert set(ranked[:2]) == {"p5", "p7"}


def test_two_words_said_one_after_the_other_in_one_block_alone_are_enough():
    """hand dev-second: "move market research studies up", "the sentence that introduces the payables aging table":
    each word is in many blocks, the phrase in one."""
    state = _long_document("Market research studies", filler="Our market research and the studies of aging payables.")
    assert distinctive_blocks(state, "In the list of appendices, move market research studies up") == ["p45"]
    assert distinctive_blocks(state, "move the studies of market research up") == []  # no phrase: words everywhere
    state = _long_document("A payables aging looks like the following table.",
                           filler="Aging receivables and payables are shown in the table.")
    assert distinctive_blocks(state, "comment on the sentence that introduces the payables aging table") == ["p45"]


def test_chinese_is_read_as_pairs_of_characters():
    state = _long_document("附件3：申报材料清单", filler="本办法自发布之日起施行。")
    assert distinctive_blocks(state, "附件3那个申报材料清单，序号换成自动编号") == ["p45"]


def test_the_planner_view_is_centred_on_them_only_when_the_window_leaves_them_out():
    state = _state_of(["Case 3 (negative top margin) is still TODO." if n == 45
                       else f"The team met on Monday and made the same plans as before. Item {n}." for n in range(60)])
    target = next(p["id"] for p in state["paragraphs"] if "negative" in p["text"])
    request = "Case 3 (negative top margin) is done now, mark it as done."
    record = InstructionResult(request)
    line = re.compile(rf"^{target} ", re.MULTILINE)
    assert not line.search(views.state_view(state, request, record, 300))  # the window alone leaves it out
    assert line.search(views.grounded_view(state, request, record, 300, quoted_in=request))
    whole = views.grounded_view(state, request, record, None, quoted_in=request)
    assert whole == views.state_view(state, request, record, None)  # nothing windowed: nothing changed


def test_words_of_other_alphabetic_scripts_are_read_as_words():
    """docx4j__Docx4j_Russian.docx (scripts/pointing_recall.py): Cyrillic words were no words at all."""
    state = _long_document("Коммерческая лицензия позволяет выделенную поддержку.",
                           filler="Документ описывает библиотеку и её использование.")
    assert distinctive_blocks(state, "Выделите абзац про коммерческая лицензия жирным.") == ["p45"]
    assert distinctive_blocks(state, "Сделайте документ описывает жирным.") == []  # in every paragraph


def test_words_each_in_many_blocks_name_the_few_that_hold_them_all():
    """oxsdk__BackgroundReport (scripts/pointing_recall.py): "the paragraph that talks about common, respective and
    roles", each word in many paragraphs, all three in one."""
    from autodw.agent.pointing import pointed

    state = _long_document("A common understanding of the respective roles of stakeholders.")
    fillers = ["A common market opened.", "Their respective offices closed.", "New roles were defined."]
    for n in range(0, 40):
        state["paragraphs"][n]["text"] = fillers[n % 3]
    assert "p45" in pointed(state, "Delete the paragraph that talks about common, respective and roles.")
    assert "p45" not in pointed(state, "Delete the paragraph that talks about common and roles.")  # two: not enough
    state["paragraphs"][10]["text"] = state["paragraphs"][20]["text"] = state["paragraphs"][30]["text"] = \
        "Common, respective and distinct roles."
    assert "p45" not in pointed(state, "Delete the paragraph that talks about common, respective and roles.")  # 4 hold all


def test_a_long_documents_lines_saying_only_a_word_the_request_says_are_found_though_four_hold_it():
    # dwh-246#2: "the two Maven dependency snippets for slf4j": "<dependency>" opens and closes each snippet of a
    # 196-block document, four lines; a word in 2% of a long document's blocks is distinctive
    state = _long_document("Add the library:")
    texts = [f"The team met on Monday and made the same plans as before. Item {n}." for n in range(200)]
    for n, line in ((100, "  <dependency>"), (101, "    <groupId>org.slf4j</groupId>"), (102, "  </dependency>"),
                    (110, "  <dependency>"), (111, "    <groupId>org.slf4j</groupId>"), (112, "  </dependency>")):
        texts[n] = line
    state["paragraphs"] = [{"id": f"p{n}", "index": n, "text": t, "style": "Normal", "runs": []}
                           for n, t in enumerate(texts)]
    assert distinctive_blocks(state, "Shade the two Maven dependency snippets for slf4j.") == ["p100", "p102"]
    assert distinctive_blocks({**state, "paragraphs": state["paragraphs"][:120]},
                              "Shade the two Maven dependency snippets for slf4j.") == []  # 4 of 120: not rare



def _state_of(texts: list[str]) -> dict:
    """The state of a document of one plain paragraph per text."""
    document = docx.Document()
    for text in texts:
        document.add_paragraph(text)
    buffer = io.BytesIO()
    document.save(buffer)
    return extract_state(WordDocument.from_bytes(buffer.getvalue()))


def test_a_name_the_request_says_points_at_the_few_blocks_holding_it_capitalised():
    """hand dev-eighteenth dwh-283#4: "Burda's article ... Skolek's surname" on a German journal whose English article
    holds many of the request's other words: the lines of each name are found, and the view is centred on them."""
    texts = [f"Die Sitzung fand am Montag statt. Eintrag {n}." for n in range(60)]
    texts[3] = "Gerhard BURDA: Islam::Angst / 103"
    texts[40], texts[41] = "Gerhard Burda:", "Islam::Angst"
    texts[50] = "Reinhard Skolek: Analytische Psychologie"
    texts[20] = "Like others he joined the article, the title and his name on separate lines in capitals, every one."
    texts[30] = "the word closed is written in lower case here, Closed there"
    state = _state_of(texts)
    ids = [p["id"] for p in state["paragraphs"]]
    request = ("Burda's article starts with his name and the title on two separate lines, every other article has "
               "them on one line. Join them. Skolek's surname also isn't capitalised, fix that too.")
    assert names_held(state, request) == [ids[3], ids[40], ids[50]]
    assert names_held(state, "The Closed label, the Montag line") == []  # in lower case too; in too many blocks
    view = views.grounded_view(state, request, InstructionResult(request), 500, quoted_in=request)
    assert all(re.search(rf"^{ids[n]} ", view, re.MULTILINE) for n in (40, 41, 50))



def test_a_name_said_in_the_latin_alphabet_points_at_its_first_blocks_spelt_in_cyrillic():
    """dev-twenty-first dwh-322#4 ("Kashin has left the committee ... put her name instead of his in every signature
    block" of a Russian contract signed "А.Г.Кашин" under eight appendices): the name is found spelt in Cyrillic, in
    the first few blocks however many hold it; also for the API generator, whose step quotes only the text to replace."""
    def state_of(texts: dict[int, str]) -> dict:
        return _state_of([texts.get(n, f"Заседание прошло в понедельник, пункт {n}.") for n in range(200)])

    signed = {45: "Комитета по информатизации и связи\t\tА.Г.Кашин", 150: "Председатель\tА.Г.Кашин",
              155: "Председатель\tА.Г.Кашин", 10: "Юрий Гошовская"}
    state = state_of(signed)
    ids = [p["id"] for p in state["paragraphs"]]
    request = "Kashin has left the committee, so put her name instead of his in every signature block."
    assert names_held(state, request) == [ids[45], ids[150], ids[155]]
    assert names_held(state, "Yury Goshovskaya signs it now.") == [ids[10]]
    state = state_of({**signed, 20: "Кашин", 30: "Кашин"})
    assert names_held(state, request) == [ids[20], ids[30], ids[45]]  # in more blocks than a Latin name may be
    step = 'Replace text everywhere it occurs: find "Председатель"; replace "Директор".'
    view = views.grounded_view(state, step, InstructionResult(request), 300, quoted_in=step,
                               pointing_in=f"{step}\n{request}")
    assert re.search(rf"^{ids[45]} ", view, re.MULTILINE)
    assert names_held(state_of({**signed, 31: "кашин"}), request) == []  # in lower case too: a word, not a name


def test_a_name_said_in_the_latin_alphabet_is_found_declined_in_cyrillic():
    """hand dev-thirty-third dwh-466#8 ("the first point of the resolution, where it removes the phrase about the
    Garnizonnoe settlement's charter" of a Russian resolution saying "Устав Гарнизонного сельского поселения"): the
    name is said in its dictionary form and written declined; only its ending differs. A word sharing only its
    first letters (Гарнитура) is another word."""
    texts = [f"Заседание прошло в понедельник, пункт {n}." for n in range(60)]
    texts[24] = "Внести изменения, исключив из п 3.5 фразу « Устав Гарнизонного сельского поселения»"
    texts[40] = "Гарнитура шрифта Times New Roman"
    state = _state_of(texts)
    ids = [p["id"] for p in state["paragraphs"]]
    request = "Put a comment where it removes the phrase about the Garnizonnoe settlement's charter."
    assert names_held(state, request) == [ids[24]]
    assert names_held(state, "the Garnitury line") == [ids[40]]  # the same word, another ending
    assert names_held(state, "the Garnizon line") == [ids[24]]
    assert names_held(state, "the Garnisonnaya street") == []  # its letters differ before the ending
    view = views.grounded_view(state, request, InstructionResult(request), 300, quoted_in=request)
    assert re.search(rf"^{ids[24]} ", view, re.MULTILINE)


def test_a_range_of_codes_is_a_phrase_naming_the_one_line_saying_it():
    """"the all of the above line tells people to answer B2 - B5; it should be B1 - B5 like the lines above it"
    (dwh-343#5): B2 and B5 are in many rating-factor lines, but only the one line says "B2 - B5" (spaced or not)."""
    texts = ["B2. Ability to provide care.", "B5. Ability to deal with others.", "Describe B2 and B5 work.",
             "( ) GS-11 (Please respond to rating factors B1 - B5)", "( ) GS-12 (Please respond to rating factors B1-B5)",
             "( ) all of the above (Please respond to rating factors A1 - A5 and B2 - B5)", "Other text here."]
    state = {"paragraphs": [{"id": f"p{n}", "text": t, "style": "Normal", "runs": []} for n, t in enumerate(texts, 1)],
             "tables": []}
    request = "the all of the above line tells people to answer B2 - B5; it should be B1 - B5 like the lines above it"
    named = {bid for bid, _, is_named in ranked_blocks(state, request) if is_named}
    assert named == {"p6"}


def test_pictures_are_found_by_the_words_of_their_alt_text():
    """hand dev-twenty-fifth dwh-367#4 (local ceiling): "the main screen screenshot" of 17 screenshots names the one
    whose alt text is "CulmannMain" (a name written as one word read as its words) and the one about the help screen;
    a word many alt texts hold (TMD) names none, and the local planner view then shows their lines."""
    alts = ["TMD_output", "TMD_properties", "TMD_excitation_type", "TMD_mass", "mohr_result", "CulmannMain",
            "Screenshot of the help screen of the Culmann Method applet"]
    state = _long_document("Nothing here.")
    state["images"] = [{"id": f"img{n}", "type": "picture", "paragraph": f"p{n}", "width_cm": 15.2, "height_cm": 10.1,
                        "placement": "inline", "alt_text": a} for n, a in enumerate(alts, 1)]
    assert drawings_described(state, "the main screen screenshot just before it is massive") == ["img7", "img6"]
    assert drawings_described(state, "the TMD picture") == []
    assert drawings_described(state, "make the logo bigger") == []
    state = {**_state_of([f"The team met on Monday and made the same plans as before. Item {n}." for n in range(60)]),
             "images": state["images"]}
    request = "the main screen screenshot is massive"
    assert "img6 picture" not in views.state_view(state, request, InstructionResult(request), 300)
    view = views.grounded_view(state, request, InstructionResult(request), 300, quoted_in=request)
    assert "img6 picture" in view


def test_charts_are_found_by_their_title_and_data():
    """hand dev-twenty-ninth dwh-418#1 (local ceiling): "The fruit column chart has a silly value for pears in Series
    1" names the chart titled "fruit" (categories apple, banana, pear), not the others: each of the four charts has a
    "Series 1"."""
    state = _long_document("Nothing here.")
    state["images"] = [{"id": f"chart{n}", "type": "chart", "paragraph": "p3", "width_cm": 7.0, "height_cm": 4.0,
                        "placement": "inline", "chart_type": "column", "title": title, "categories": categories,
                        "series": [{"name": "Series 1", "values": [1, 2, 3]}]}
                       for n, (title, categories) in enumerate([(None, ["1", "2", "3"]),
                                                                 ("fruit", ["apple", "banana", "pear"]),
                                                                 (None, ["Q1", "Q2", "Q3"]),
                                                                 ("Sales", ["North", "South", "West"])], 1)]
    assert drawings_described(state, "The fruit column chart has a silly value for pears in Series 1") == ["chart2"]
    assert drawings_described(state, "the banana value next to it is 2.9999997") == ["chart2"]
    assert drawings_described(state, "make Series 1 red") == []
