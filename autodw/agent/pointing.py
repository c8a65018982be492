"""What a request points at, for a windowed view of the document to show first (:func:`pointed`, :func:`parts`).

A request names its targets by content (words of it that few blocks of the document hold:
:mod:`autodw.agent.distinctive`), by a heading whose section it means (grounding's matches), by position ("at the
end", "the last paragraph", "文末", "on the opening page") or as the whole document ("double-space the whole thing", "全文"); and it may
name a part shown outside the body (the page header, the pictures, the comments). Text the request dictates is not
read as pointing (:func:`~autodw.agent.grounding.undictated`).
"""

from __future__ import annotations

import functools
import itertools
import re
from collections import Counter
import unicodedata
from typing import Any, Callable, Collection, Iterable

import numpy as np

from autodw.agent.distinctive import (ALNUM, LOOK_ALIKE_LETTERS, MIN_SCORE, block_texts, names_held, ranked_blocks,
                                     unconfused)
from autodw.agent.grounding import (CLOSING, MIN_NAME_CHARS, OPENING, SECTION_NUMBER, Match, contents_entries,
                                    heading_section, in_copy, label_section, look, loose, numbered_end, quotes,
                                    section_numbers, table_caption, tables_named, title_continued, unaccented,
                                    undictated, unspaced)
from autodw.agent.request_values import UNITS, colours_to_set
from autodw.analysis.state import State
from autodw.analysis.state.effective import Formatting
from autodw.analysis.state.render import (CONTENTS_STYLE, body_blocks, boxes, cell_ids, custom_headings, heading_level,
                                         shows_something)
from autodw.core.colours import colour_ranges, colours_said
from autodw.core.ids import ID_IN_TEXT

MAX_MATCHES = 3  # paragraphs a segment of the request names by their whole text
MAX_WORD_BLOCKS = 6  # blocks holding the request's rare words, best first
MAX_COLOURED = 6  # paragraphs of a colour the request describes its target by ("the two blue section titles")
#: a request describing its target as bold, not asking for bold: "the bold section labels", "加粗的那几行"
_BOLD = re.compile(r"\b(?:the|those|these|all|any)\s+bold(?:ed|face)?\s+(?!(?:and|or|too|as|in|on|of|for|from|with|to)\b)"
                   r"(?P<noun>[^\W\d_]+(?:\s+[^\W\d_]+)?)|(?<![成为])(?:加粗|粗体)(?:过|了)?的(?P<zh>.{0,4})", re.IGNORECASE)
#: a target described as set in italics ("the one sentence in italics", "the italicised line"; not "put it in
#: italics", :data:`_ITALIC_ASKED`): the noun it is described by
_ITALIC = re.compile(r"\b(?P<noun>sentences?|paragraphs?|lines?|text|words?|phrases?|passages?|quotes?|quotations?|"
                     r"titles?|headings?|labels?)\s+(?:(?:that|which)\s+(?:is|are)\s+)?(?:(?:set|written|typed|printed)\s+)?"
                     r"in\s+italics?\b|\b(?:the|those|these|all|any)\s+(?:\w+\s+)?italic(?:s|i[sz]ed)?\s+(?P<after>\w+)",
                     re.IGNORECASE)
_ITALIC_ASKED = re.compile(r"\b(?:put|set|make|format|turn|change|render)\b[^.;!?]{0,60}?\bin\s+italics?\b",
                           re.IGNORECASE)
_SENTENCE_NOUN = re.compile(r"sentences?|paragraphs?|passages?|quotes?|quotations?", re.IGNORECASE)
#: a request speaking of a box or border there is ("make the box dark blue", "the frame round the note", "the boxed
#: note", "把边框改成蓝色"), not of one it asks for ("put a box around the quote", "加个边框")
_BOX_SAID = re.compile(r"\b(?:the|that|this|those|these|its|their)\s+(?:[^\W\d_]+\s+)?(?:box(?:es)?|frames?|borders?)\b|"
                       r"\b(?:boxed|framed|bordered)\b|(?<!加)(?<!添)(?<!加个)(?<!加上)(?<!加一个)(?<!加了)(?:边框|方框|框线)",
                       re.IGNORECASE)
#: what a request calls short lines that stand for headings ("the bold section labels", "加粗的小标题")
_LABEL_NOUN = re.compile(r"\b(?:labels?|titles?|headings?|headers?|names?)\b|标题|小标|抬头", re.IGNORECASE)
#: a request describing its target as highlighted ("the highlighted rows", "刚才高亮的那几条"), not asking for it
_HIGHLIGHTED = re.compile(r"\bhighlighted\b(?!\s+(?:in|with)\b)|(?<![成为])(?:高亮|标黄)(?:过|了)?的", re.IGNORECASE)
END_BLOCKS = 4  # the body's last blocks a request for "the end" points at
START_BLOCKS = 12  # the body's first blocks a request for the opening page points at (a title page's lines)
MAX_WHOLE_BLOCKS = 24  # blocks of a document pointed at whole (in a longer one "全文" says where, not what to show)
MAX_SECTION_BLOCKS = 30  # blocks of a named heading's section (a longer one is pointed at by its opening and outline)
MAX_SHORT_SECTION_CHARS = 3000  # characters of a section of short lines (code) pointed at whole past MAX_SECTION_BLOCKS
LINE_CHARS = 40  # characters a line of the view costs besides its text (its id, index, style, format)
SECTION_OPENING = 3  # the first blocks with text of a section too long to point at whole ("the titlePg description")
MIN_WORD_SCORE = 1.0  # a block's rare words: at least one word no other block holds, or two held by two blocks each
MAX_ALIKE = 24  # paragraphs like those the request's words name, when it asks for more of them ("etc")
MAX_LABEL_BLOCK = 4  # short lines of a block a short label heads, set apart by empty paragraphs
MAX_UNDER_EACH = 8  # lines of a kind under each label of a range that are its labels, not the lines under them
MAX_LABEL_WORDS = 4  # words of a short unstyled label paragraph that stands for a heading ("For Investors")
MIN_LABEL_WORD = 4  # letters of a label's word that counts (shorter ones, "For", "and", are not what names it)
MIN_KEY_CHARS = 3  # characters of a table cell's key ("WSIS") a request names its row by
#: a number a request says that may name its target ("since 1995", "the 2,450 figure"): three digits or more, or a
#: percentage ("the 10% advance payment"; not one to set: "scale it to 50%", "调为80%"): its digits
_NUMBER_SAID = re.compile(r"(?<![\d.,])(\d{3,})(?![\d]|[.,]\d)"
                          r"|(?<![\d.,])(?<!\bto )(?<!\bat )(?<!\bby )(?<![为到成])(\d+(?:[.,]\d+)?)\s*[%％]")
#: a number of one or two digits said with a unit word ("5年", "3 years"; not an ordinal, "第5", nor one to set): its
#: digits and the word
_QUANTITY_SAID = re.compile(r"(?<![\d.,第#№])(?<!\bto )(?<!\bat )(?<!\bby )(?<![为到成])(\d{1,2})(?![\d]|[.,]\d)\s*"
                            r"([^\W\d_]+)")
#: a number of one or two digits said as the value the document holds, beside the new one ("23 kg now, not 20",
#: "still gate 32", "instead of 15"): its digits
_HELD_SAID = re.compile(r"(?:\b(?:not|instead\s+of|rather\s+than|still|was|were)|不是|而非|原来是)\s*"
                        r"(?:(?:the|a|an)\s+)?(?:[^\W\d_]+\s+)?(?<![\d.,])(\d{1,2})(?![\d]|[.,:/-]\d)", re.IGNORECASE)
#: a date ("15/4/2015", "2015-04-15") and a clock time ("06:00") a request says, of any value
_SHAPES = (r"(?<![\d.,/:-])(?:\d{1,2}([/.])\d{1,2}\1\d{4}|\d{1,2}/\d{1,2}/\d{2}|\d{4}-\d{1,2}-\d{1,2})(?![\d/:-]|[.,]\d)",
           r"(?<![\d.,/:-])\d{1,2}:\d{2}(?![\d/:-]|[.,]\d)")
_SIZE_UNITS = ("号", "倍", "px")  # a Chinese font size ("小四号"), a line spacing ("2倍"), pixels: sizes, not quantities
_ENUMERATOR = re.compile(r"^\s*(\d{1,2}|[A-Za-z])[.)]\s")  # a line typed with its enumerator ("A.\tMONTHLY REPORTS")
_SERIES_LABEL = re.compile(r"^\s*([^\W\d_]+(?:\s+[^\W\d_]+){0,2})\s+(\d{1,3})\s*$")  # "chapter 7", "part 3"
#: a section a request names by its number ("section 7", "раздел 12", "chapter 3.2", "§ 4", "第5章"; "paragraph 105" of a
#: report whose paragraphs are typed with their numbers, "105 - ..."): the number
_PART_NUMBER = re.compile(r"(?:(?<![^\W\d_])(?:sections?|sect\.|chapters?|clauses?|articles?|parts?|paragraphs?|paras?\.?|"
                          r"раздел\w*|глав\w*|"
                          r"пункт\w*|стать\w*|част\w*|пп?\.|ст\.|гл\.|secci[oó]n|cap[ií]tulo|apartado|art[ií]culo|chapitre|abschnitt|"
                          r"kapitel)|§)\s*(\d+(?:\.\d+)*)(?![\w.]\d|\w)|第\s*(\d+(?:\.\d+)*)\s*(?:章|节|節|条|條|部分)",
                          re.IGNORECASE)
#: the part words a request and a label name a numbered part by, per kind ("article 8" names "Artigo Oitavo", not
#: "Capítulo Oitavo")
_PART_KINDS = {"article": r"articles?|artigos?|art[ií]culos?|arts?\.|artikel|стать\w*",
               "chapter": r"chapters?|cap[ií]tulos?|chapitres?|kapitel|глав\w*",
               "section": r"sections?|sect\.|sec[cç](?:ão|ao|ion|ión)|seção|abschnitt|раздел\w*",
               "clause": r"clauses?|cl[aá]usulas?", "part": r"parts?|partes?",
               # "appendix 8" of a Russian contract: "Приложение № 8"
               "appendix": r"appendix|appendices|annex(?:es|e)?|anexos?|anhang|приложени\w*"}
#: the sign a number may follow in a part's label or a request ("Приложение № 8", "Annex No. 3")
_NUMBER_SIGN = r"(?:№|#|N[oº°]\.?)?"
_PART_SAID = {kind: re.compile(rf"(?<![^\W\d_])(?:{words})\s*{_NUMBER_SIGN}\s*(\d{{1,3}})(?:\s*\.?\s*[ºª°])?(?![\w.]\d|\w)",
                               re.IGNORECASE)
              for kind, words in _PART_KINDS.items()}
_PART_LABEL = {kind: re.compile(rf"^\s*(?:{words})\s*(.+)$", re.IGNORECASE) for kind, words in _PART_KINDS.items()}
#: a request speaking of the labels of a kind's parts, all of them ("the article headings", "the numbers of the
#: articles"; in Chinese, "条号", an article's number, dwh-470#7 and #9): per kind, the kind's word then a label's
#: noun, or the noun of the parts
_LABEL_NOUNS = r"(?:headings?|titles?|numbers?|labels?)"
_CHINESE_LABELS = {"article": r"条号|(?:每一?|各)条的?(?:标题|编号)"}
_LABELS_SAID = {kind: re.compile(rf"(?<![^\W\d_])(?:{words})['’]?\s+{_LABEL_NOUNS}\b|\b{_LABEL_NOUNS}\s+of\s+(?:the|each|"
                                 rf"every|all(?:\s+the)?)\s+(?:{words})(?!\w)" +
                                 (f"|{_CHINESE_LABELS[kind]}" if kind in _CHINESE_LABELS else ""), re.IGNORECASE)
                for kind, words in _PART_KINDS.items()}
#: number words a part's label is written with ("Artigo Décimo Quarto", "Artículo decimocuarto", "ARTICLE TWENTY-ONE",
#: "Chapitre huitième"), accents dropped, feminine "-a" read as "-o": their values, added up
_NUMBER_WORDS = {w: n for n, words in enumerate((
    "", "primeiro primero primer first one um uno premier premiere", "segundo second two dois dos deuxieme",
    "terceiro tercero third three tres troisieme", "quarto cuarto fourth four quatro cuatro quatrieme",
    "quinto fifth five cinco cinquieme", "sexto sixth six seis sixieme", "setimo septimo seventh seven sete siete septieme",
    "oitavo octavo eighth eight oito ocho huitieme", "nono noveno ninth nine nove nueve neuvieme",
    "decimo tenth ten dez diez dixieme", "undecimo eleventh eleven onze once", "duodecimo twelfth twelve doze doce",
    "thirteenth thirteen treze trece", "fourteenth fourteen catorze quatorze catorce", "fifteenth fifteen quinze quince",
    "sixteenth sixteen dezasseis dezesseis dieciseis", "seventeenth seventeen dezassete dezessete diecisiete",
    "eighteenth eighteen dezoito dieciocho", "nineteenth nineteen dezanove dezenove diecinueve")) for w in words.split()}
#: Arabic ordinals, hamza and tanween dropped ("أولاً" is "اولا"), added up ("ثالث عشر" 3 + 10: chapter XIII)
_NUMBER_WORDS.update({w: n for n, words in enumerate((
    "", "اول اولا حادي", "ثان ثاني ثانيا", "ثالث ثالثا", "رابع رابعا", "خامس خامسا", "سادس سادسا", "سابع سابعا",
    "ثامن ثامنا", "تاسع تاسعا", "عاشر عاشرا عشر")) for w in words.split()})
#: Persian ordinals ("کلید پنجم", "مسأله دوّم": the shadda dropped)
_NUMBER_WORDS.update({w: n for n, words in enumerate((
    "", "یکم نخست", "دوم", "سوم", "چهارم", "پنجم", "ششم", "هفتم", "هشتم", "نهم", "دهم")) for w in words.split()})
_NUMBER_WORDS.update({w: 10 * n for n, words in ((2, "vigesimo twentieth twenty vinte veinte عشرون"),
                                                 (3, "trigesimo thirtieth thirty trinta treinta"),
                                                 (4, "quadragesimo cuadragesimo fortieth forty quarenta cuarenta"))
                      for w in words.split()})
_NUMBER_JOINERS = {"e", "y", "and"}  # "vinte e um", "treinta y uno"
#: the words of :data:`_NUMBER_WORDS` a quantity is written with ("quatro anos", "four years"): the cardinals, not the
#: ordinals ("second", "segundo": also "according to"), nor Spanish "once" (11), an English word in a request
_CARDINALS = {w: _NUMBER_WORDS[w] for w in (
    "one um uno two dois dos three tres four quatro cuatro five cinco six seis seven sete siete eight oito ocho nine "
    "nove nueve ten dez diez eleven onze twelve doze doce thirteen treze trece fourteen catorze quatorze catorce "
    "fifteen quinze quince sixteen dezasseis dezesseis dieciseis seventeen dezassete dezessete diecisiete eighteen "
    "dezoito dieciocho nineteen dezanove dezenove diecinueve twenty vinte veinte thirty trinta treinta forty quarenta "
    "cuarenta").split()}
_ACCENTED = {"a": "aáàâãä", "e": "eéèêë", "i": "iíìîï", "o": "oóòôõö", "u": "uúùûü", "c": "cç", "n": "nñ"}


def worded_number(text: str) -> int | None:
    """The number `text` is written as in words only ("Décimo Quarto" 14, "vigésimo primeiro" 21, "decimocuarto" 14,
    "twenty-first" 21), or None."""
    words = [w for w in re.split(r"[\s-]+", unaccented(text.casefold()).strip(_TRIM + "-–—")) if w]
    total, seen = 0, False
    for word in words:
        if word in _NUMBER_JOINERS and seen:
            continue
        value = _word_value(word)
        if value is None:
            return None
        total, seen = total + value, True
    return total if seen else None


def _word_value(word: str) -> int | None:
    """One number word's value (:data:`_NUMBER_WORDS`; a feminine "-a", "primeira"; a compound "decimocuarto")."""
    for w in (word, word[:-1] + "o" if word.endswith("a") else word):
        if w in _NUMBER_WORDS:
            return _NUMBER_WORDS[w]
        for tens in ("decimo", "vigesimo", "trigesimo"):
            if w.startswith(tens) and w[len(tens):] in _NUMBER_WORDS:
                return _NUMBER_WORDS[tens] + _NUMBER_WORDS[w[len(tens):]]
    return None


def part_number(text: str, kind: str) -> int | None:
    """The number of a paragraph typed as a part of `kind` (:data:`_PART_KINDS`) by it, up to
    :data:`MAX_TITLE_WORDS` words long: in words ("Artigo Oitavo") or digits ("Art. 5º", "Artigo 5.º – Sede"),
    or None."""
    m = _PART_LABEL[kind].match(text)
    if m is None or len(text.split()) > MAX_TITLE_WORDS:
        return None
    if (digits := re.match(rf"{_NUMBER_SIGN}\s*(\d{{1,3}})(?:\s*\.?\s*[ºª°])?(?:\s*[.:–—-]|\s*$)", m.group(1))) is not None:
        return int(digits.group(1))
    return worded_number(m.group(1))


def parts_numbered(state: State, said: str) -> list[tuple[str, str]]:
    """The parts `said` names by a kind and number ("article 8", "Art. 14º"; in Chinese, "第八条" of Portuguese
    statutes, dwh-470#4) typed with a label of that kind in any language, the number in words or digits ("Artigo
    Oitavo", "Artículo 14"; :func:`part_number`), each with the paragraph before the next label of a part (any kind)
    or the last paragraph; a number more than :data:`MAX_MATCHES` paragraphs are labelled with names none."""
    paras = state.get("paragraphs", [])
    wanted = {(kind, int(n)) for kind, pattern in _PART_SAID.items() for n in pattern.findall(said)}
    wanted |= {(_CHINESE_PART_KINDS[word], chinese_value(n)) for n, word in _CHINESE_PART_SAID.findall(loose(said))}
    wanted |= {("appendix", chinese_value(n)) for n in _CHINESE_APPENDIX_SAID.findall(loose(said))}  # "附件3": "Приложение № 3"
    if not wanted or not paras:
        return []
    labels = [(i, kind, n) for i, p in enumerate(paras) for kind in _PART_KINDS
              if (n := part_number(p.get("text", ""), kind)) is not None]
    out = []
    for kind, number in wanted:
        held = [j for j, (_, k, n) in enumerate(labels) if (k, n) == (kind, number)]
        if len(held) <= MAX_MATCHES:
            out += [(paras[labels[j][0]]["id"], paras[labels[j + 1][0] - 1]["id"] if j + 1 < len(labels)
                     else paras[-1]["id"]) for j in held]
    return out


def part_labels(state: State, said: str) -> list[str]:
    """Every paragraph typed with a label of a kind of part (:func:`part_number`: "Artigo Primeiro" to "Artigo Vigésimo
    Primeiro") when `said` (undictated text) speaks of that kind's labels (:data:`_LABELS_SAID`: "每一条的条号…都加粗",
    "刚才加粗的条号再都居中" of Portuguese statutes, dwh-470#7 and #9) and two or more are typed, the first
    :data:`MAX_ALIKE`."""
    out: list[str] = []
    for kind, pattern in _LABELS_SAID.items():
        if pattern.search(said):
            labels = [p["id"] for p in state.get("paragraphs", []) if part_number(p.get("text", ""), kind) is not None]
            out += labels[:MAX_ALIKE] if len(labels) >= 2 else []
    return out


#: a part a request names by a word and a number ("Key 5", "lesson 3"): the word and the number
_WORD_NUMBER = re.compile(r"(?<![^\W\d_])([^\W\d_]{3,})\s+(\d{1,2})(?![\w.,]\d|\w)")
#: a heading labelled by a word and a number before its title ("کلید پنجم:\nتکرار هفتگی قرآن", "Lesson Three: Verbs"):
#: the word and the number, in digits or words
_LEAD_LABEL = re.compile(r"^\s*([^\W\d_]+)\s+([^:\n\t–—-]{1,30}?)\s*(?:[:\n\t–—-]|$)")
MIN_WORD_MARGIN = 0.025  # the series word most like a request's word (multilingual-e5) over the next


def series_numbered(state: State, said: str) -> list[tuple[str, str]]:
    """The sections (heading, last paragraph) of the headings labelled by a word and a number in digits or words
    ("کلید پنجم:" of a Persian book, "Lesson Three: ...", in series of two or more) that `said` (undictated text)
    names by a word and that number ("Key 5"): the series of that word, or, for a word the series do not have (said
    in another language), the one whose word is most like it (:func:`_nearest_word`); a number more than
    :data:`MAX_MATCHES` headings of the series are labelled with names none."""
    wanted = [(unaccented(loose(word)), int(n)) for word, n in _WORD_NUMBER.findall(said)]
    if not wanted:
        return []
    custom = custom_headings(state)
    series: dict[str, list[tuple[str, int]]] = {}
    for p in state.get("paragraphs", []):
        if heading_level(p.get("style"), custom) is None or (m := _LEAD_LABEL.match(p.get("text", ""))) is None:
            continue
        number = int(m.group(2)) if m.group(2).isdigit() else worded_number(m.group(2))
        if number is not None:
            series.setdefault(unaccented(loose(m.group(1))), []).append((p["id"], number))
    series = {word: heads for word, heads in series.items() if len(heads) > 1}
    out = []
    for word, number in wanted:
        name = word if word in series else _nearest_word(word, list(series))
        held = [pid for pid, n in series.get(name or "", []) if n == number]
        if len(held) <= MAX_MATCHES:
            out += [(pid, under[1]) for pid in held if (under := heading_section(state, pid)) is not None]
    return out


def _nearest_word(word: str, words: list[str]) -> str | None:
    """Of two or more `words`, the one most like `word` by multilingual-e5 similarity when it leads the next by
    :data:`MIN_WORD_MARGIN` ("key" is "کلید", not "مسأله" nor "هدف"), else None."""
    if len(words) < 2:
        return None
    from autodw.intents.embedding import encoder, passages  # loaded only when a request names such a part

    scores = (encoder().query([word]) @ passages(words).T)[0]
    second, best = np.argsort(scores)[-2:]
    return words[best] if scores[best] - scores[second] >= MIN_WORD_MARGIN else None


#: a request speaking of the table of contents ("and in its table of contents entry", "目录里")
_CONTENTS_SAID = re.compile(r"\btable\s+of\s+contents\b|\bcontents\s+(?:entry|entries|page|list)\b|\btoc\b|目录",
                            re.IGNORECASE)


def entries_of(state: State, said: str, ids: Iterable[str]) -> list[str]:
    """The table of contents entries of the headings among `ids`, when `said` (undictated text) speaks of the table
    of contents ("fix the heading there and in its table of contents entry")."""
    if not _CONTENTS_SAID.search(said):
        return []
    wanted = set(ids)
    return [entry for entry, heading in contents_entries(state).items() if heading in wanted]


MAX_TITLE_WORDS = 12  # words after a section number of a paragraph read as the section's title, not a clause
#: a section number a request says ("the subsection titles 1.1, 1.2 and 2.1"; "编号是27.5和27.6": a CJK character next
#: to it is no part of it): numbers joined by dots
_SAID_NUMBER = re.compile(rf"(?<![.])(?<!{ALNUM})\d+(?:\.\d+)+(?!{ALNUM}|\.\d)")
#: a dotted section number a request places its target in ("In 3.13, ...", "the lists under 3.14", "в 3.13"): the number
_PLACED_NUMBER = re.compile(rf"(?:\b(?:in|under|within|inside)|(?<!{ALNUM})(?:в|во|под))\s+(?:the\s+)?"
                            rf"(\d+(?:\.\d+)+)(?!{ALNUM}|\.\d)", re.IGNORECASE)
#: a range of numbered labels a request names by its ends ("01CD到08CD", "01CD： to 08CD：" with the labels' colon,
#: "MEDIDA 1 to MEDIDA 22", "chapters 2-5"): the letters before the first number, it, the letters after it, the last number
_RANGE = re.compile(r"(?<![^\W\d_])([^\W\d_]*)\s*(\d+)\s*([^\W\d_]*)[:.]?\s*(?:到|至|~|～|–|—|-|\bto\b|\bthrough\b|\bthru\b)"
                    r"\s*(?:[^\W\d_]+\s*)?(\d+)(?!\d)", re.IGNORECASE)
#: a range of lettered labels a request names by its ends ("the section titles A to H", "(a)-(e)"): the two letters
_LETTER_RANGE = re.compile(r"(?<![\w(])\(?([A-Za-z])\)?\s*(?:–|—|-|\bto\b|\bthrough\b|\bthru\b)\s*\(?([A-Za-z])\)?(?![\w(])")
#: a line typed with a label ("A.\tIntroduction", "(b) Scope", "12) Costs", "(ل) قلب: ..."): its brackets and label
_TYPED_LABEL = re.compile(r"^\s*([(\[（]?)(\d{1,3}|[^\W\d_]{1,2})([.)\]）])\s")

#: the words before a list item's label that name the item by it ("第三千零一条", "item iv", "question 5"), and a label
#: quoted whole ("“二千”那一条")
_LABEL_BEFORE = r"(?:第|\b(?:items?|points?|entry|entries|number|no\.?|questions?|steps?)\s*|#)\s*"
_BOX_WORD = re.compile(r"\bbox(?:es)?\b|文本框|方框", re.IGNORECASE)  # a request speaking of a box ("same box: question 5")
_LABEL_QUOTED = OPENING + r"\s*{}\s*" + CLOSING
#: the demonstrative and measure word after a list item's label that name the item by it ("一千零一十那条", "三千零一这一项")
_LABEL_AFTER = r"\s*[这那]一?(?:条|项|行)"
CHINESE_NUMERAL = "〇零一二两三四五六七八九十百千万"  # the characters of a Chinese numeral
_CHINESE_DIGITS = {c: n for n, cs in enumerate(("〇零", "一", "二两", "三", "四", "五", "六", "七", "八", "九")) for c in cs}
CHINESE_UNITS = {"十": 10, "百": 100, "千": 1000, "万": 10000}  # a Chinese numeral's units and their values
#: a label a request names with the word for its level ("subsection B", "item 2", "paragraph (c)"; "under B", said of a
#: capital letter or a number only: not "under a table"): the label
_LEVEL_LABEL = re.compile(r"(?<![^\W\d_])(?:(?i:(?:sub)?(?:sections?|paragraphs?|clauses?)|items?|points?|letters?)\s+"
                          r"\(?([A-Za-z]|\d{1,3})\)?|(?i:under)\s+\(?([A-Z]|\d{1,3})\)?)(?!\w|[.,]\d)")
#: a line typed with a label, its full stop or bracket kept or left out ("B.   Within ...", "2    The lot ...", "(c) ..."):
#: the label
_LOOSE_LABEL = re.compile(r"^\s*[(\[（]?(\d{1,3}|[^\W\d_]{1,2})(?:[.)\]）]\s|\t|\s{2,})")
_END = re.compile(r"\b(?:at|to|near)\s+the\s+(?:very\s+)?(?:end|bottom)\b"
                  r"|\bend\s+of\s+the\s+(?:document|doc|file|text)\b"
                  # "the last paragraph", "the last two sections", "the last article" ("最后两段" below)
                  r"|\b(?:last|final|closing|concluding)\s+(?:(?:two|three|four|five|few|couple\s+of|\d+)\s+)?"
                  r"(?:paragraph|line|item|entry|sentence|page|part|bit|reference|citation|section|article|clause"
                  r"|chapter)s?\b"
                  r"|文末|末尾|结尾|最后面|最下面|文档最后|最后(?:[一两二三四五六七八九十几]|\d+)?(?:条|项|个|段|行|句|页|部分)|[在到]最后(?![一两二三四五六七八九十几]|把|再|才)"
                  # one more added at the end ("参考文献最后再补一条"), not at a list's ("列表最后再加一条") or another's
                  r"|(?<!列表)(?<!清单)(?<!的)最后再?(?:补|加|添|增|写)(?:上|充)?(?:[一两二三四五六七八九十几]|\d+)(?:条|项|个|段|行|句)"
                  r"|(?<!列表)(?<!清单)(?:文档|全文|文章|正文)(?:的)?(?:结束|完了|最后)"
                  r"|落款", re.IGNORECASE)  # a letter's sign-off ("最后落款那里，名字后面加上…", dwh-400#8)
#: the start of the document ("on the opening page", "at the top of the document", "文档开头", "第一页")
_START = re.compile(r"\b(?:opening|first|front|title|cover)\s+page\b"
                    r"|\b(?:top|start|beginning)\s+of\s+the\s+(?:document|doc|file|text|book)\b"
                    r"|(?:文档|全文|文章|正文)(?:的)?(?:开头|最前面)|第一页|首页|封面|扉页|最上面|最前面", re.IGNORECASE)
#: a request speaking of the document repeating itself ("where the cover repeats", "the second copy", "重复")
_REPEATED = re.compile(r"\brepeat(?:s|ed|ing)?\b|\bduplicat\w*|\b(?:second|third|another|next)\s+copy\b|\bcopies\b"
                       r"|重复|副本", re.IGNORECASE)
OPENING_LINES = 2  # the document's first lines with text whose recurrence, in order, is where a copy of it starts
#: the end of a list, not of the document ("列表最后再加一条", "列表结束以后", "at the bottom of the list")
_LIST_END = re.compile(r"(?:列表|清单)(?:的)?(?:结束|完了|最后|末尾|后面)|\b(?:end|bottom)\s+of\s+(?:the|this|that|my|our)\s+"
                       r"(?:\w+\s+)?(?:list|bullets|items)\b|\b(?:list|bullets)\s+ends\b"
                       # an item added to a list goes at its end ("add an adapter for the Japanese plug to that list")
                       r"|\b(?:add|append)\b[^.;!?]{0,80}?\bto\s+(?:the|this|that|my|our)\s+(?:\w+\s+)?(?:list|bullets)\b"
                       r"|(?:加|添|补)(?:到|进)(?:那个|这个)?(?:列表|清单)", re.IGNORECASE)
_WHOLE = re.compile(r"\b(?:whole|entire)\s+(?:thing|document|doc|file|text)\b|\beverything\b"
                    r"|\ball\s+(?:of\s+)?(?:the\s+)?(?:text|paragraphs|document)\b|全文|整篇|整个文档|全部段落|所有段落",
                    re.IGNORECASE)
#: where a request's segments end: each may be a paragraph's whole text ("the titles (申 请 表, 填 写 说 明)", "under
#: 'The contractor shall'"; an apostrophe inside a word ends none)
_SEGMENT_END = re.compile(r"[,;:()\[\]（）【】，、；：。!?！？\"“”「」‘]|(?<!\w)'|'(?!\w)|’(?!\w)|\s+(?:and|or)\s+|\.(?=\s|$)",
                          re.IGNORECASE)
_TRIM = " .:;,。：；，"
#: the words closing a list's last item ("点滴智慧、……、心灵鸡汤这些", "A, B etc"): a segment holding no paragraph's whole
#: text is looked up without them
_LIST_CLOSE = re.compile(r"(?:这些|那些|[这那]几[个项条]|等等|等|之类的?)$|\s+(?:etc\.?|and\s+so\s+on)$", re.IGNORECASE)
MAX_BLOCKS_TO_TABLE = 12  # blocks from a section holding no table to the table of its attachment (label, title, lines)
MAX_LISTED_TABLES = 30  # tables listed by their first rows for a request that speaks of a table but names none
MAX_LISTED_HEADINGS = 20  # top-level headings listed by their short lines for a request that speaks of a chapter but names none
_HEADING_SAID = re.compile(r"\b(?:chapters?|headings?|titles?|sections?)\b|章节?|标题", re.IGNORECASE)
_CHAPTER_SAID = re.compile(r"\bchapters?\b|章|глав\w*|cap[ií]tulos?|chapitres?|kapitel", re.IGNORECASE)
#: a line typed as a chapter's title ("第二章  采购项目需求", "CHAPTER 6 - BUDGETS", "Глава 3. ...", its number spelt
#: out: "CAPÍTULO SEGUNDO" of Portuguese statutes)
_CHAPTER_LINE = re.compile(rf"\s*(?:第\s*[{CHINESE_NUMERAL}\d]+\s*章|(?:chapter|глава|cap[ií]tulo|chapitre|kapitel)\s+"
                           r"(?:\d+|[^\W\d_]+)\b)", re.IGNORECASE)
#: a chapter named by its Chinese number ("第三章", "第12章"): the number
_CHAPTER_SAID_NUMBER = re.compile(rf"第\s*([{CHINESE_NUMERAL}\d]+)\s*章")
#: a part named by its Chinese number and measure word ("第八条" article 8, "第十四條", "第三章" chapter 3): the number
#: and the word, whose kind :data:`_CHINESE_PART_KINDS` gives
_CHINESE_PART_SAID = re.compile(rf"第\s*([{CHINESE_NUMERAL}\d]+)\s*([条條章])")
_CHINESE_PART_KINDS = {"条": "article", "條": "article", "章": "chapter"}
#: an appendix named by its Chinese word and number ("附件3", "附录二"; not "附件2.1", a part of one): the number
_CHINESE_APPENDIX_SAID = re.compile(rf"(?:附件|附录|附錄)\s*([{CHINESE_NUMERAL}\d]+)(?![{CHINESE_NUMERAL}\d]|[.．]\d)")
MAX_TITLE_CHARS = 60  # characters of a line typed as a chapter's title (a longer one is a sentence naming a chapter)
#: a request speaking of a table, or of a table's header row ("表头的灰色底纹", dwh-410#8)
_TABLE_SAID = re.compile(r"\btables?\b|\btablas?\b|\btableaux?\b|\btabell\w*|таблиц\w*|表格|表头", re.IGNORECASE)
#: a request speaking of tables in the plural ("the tables", "那几个…小表格", "в таблицах")
_TABLES_SAID = re.compile(r"\btables\b|\btablas\b|\btableaux\b|\btabellen\b|таблиц(?:ах|ами|ам)?(?!\w)"
                          r"|(?:几|些|各|每|所有|全部)[个张份]?[^，。,；;！？]{0,12}?表格", re.IGNORECASE)
#: words placing a target under or after the tables a request speaks of ("the line right under each table", "表格下面那行")
_UNDER = re.compile(r"\b(?:under|below|beneath|underneath|after|following)\b|下面|下方|下一行|之后|后面", re.IGNORECASE)
_ABOVE = re.compile(r"\b(?:above|before|preceding|atop)\b|上面|上方|上一行|之前|前面", re.IGNORECASE)
#: a request speaking of every table ("the labels above each table", "each of the tables", "所有表格", "每一张表格")
_EACH_TABLE = re.compile(r"\b(?:(?:each|every)(?:\s+one)?(?:\s+of\s+the)?|all(?:\s+(?:the|of\s+the))?)\s+(?:\w+\s+)?"
                         r"tables?\b|(?:每|所有)(?:一?[个张]|的)?表", re.IGNORECASE)
#: a request speaking of a table's columns or of every row ("the last three columns", "每一行", "第二列"): what runs
#: through all its rows
_THROUGH_ROWS = re.compile(r"\b(?:columns?|colum?nas?|colonnes?|spalten?)\b|столб\w*|(?<![系排罗并])列(?![表出举入])|栏"
                           r"|\b(?:every|each|all(?:\s+the)?)\s+rows?\b|(?:每一?|所有)行", re.IGNORECASE)
MAX_THROUGH_ROWS = 40  # rows of a table shown whole for a request speaking of its columns (a longer one keeps its first rows)
_TABLE_OR_COLUMN = re.compile(r"\b(?:tables?|columns?|headers?)\b|表|列", re.IGNORECASE)
#: words asking for more blocks like the ones named ("policy, purpose, definitions etc", "所有…")
_MORE_ALIKE = re.compile(r"\betc\b|\band\s+so\s+on\b|\bthe\s+(?:others|rest)\b|\ball\s+(?:of\s+)?(?:the|my|our)\b"
                         r"|\bevery\b|\beach\b|等等|之类|所有|每个|全部", re.IGNORECASE)
#: a request asking for what the one before did on the others like its target ("do the same for everyone else's",
#: "the rest of them too", "其他人也一样", "其余的也加粗", "别的也一样")
_OTHERS = re.compile(r"\b(?:every(?:one|body)|all|each|any(?:one|body))\s+else(?:'s)?\b"
                     r"|\b(?:the|all\s+the|each\s+of\s+the|all\s+of\s+the)\s+(?:others|rest)\b"
                     r"|其他人|其它人|其余|别的|别人|剩下的", re.IGNORECASE)
#: the others left as they are ("leave the rest alone", "别的都不要动"), said around :data:`_OTHERS`
_OTHERS_KEPT = re.compile(r"\b(?:leave|keep|don'?t\s+(?:touch|change)|do\s+not\s+(?:touch|change))\b[^.;,]{0,12}$"
                          r"|^[^.;,]{0,12}\b(?:alone|as\s+(?:it|they)\s+(?:is|are)|unchanged|untouched)\b"
                          r"|^[^。；，]{0,4}(?:都|也)?(?:不要|不用|别|不)(?:动|改|变)|^[^。；，]{0,4}(?:保持|不变)", re.IGNORECASE)
#: a request speaking of an e-mail address ("the email line", "那个邮箱"; "油箱", the common homophone for 邮箱)
_MAIL_SAID = re.compile(r"\be-?mails?\b|\bmail\s*(?:box|address)|邮箱|油箱|电子邮件|邮件地址|电邮|электронн\w*\s+почт\w*"
                        r"|\bcorreos?\s+electr[oó]nicos?\b|\bcourriels?\b", re.IGNORECASE)
_MAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")  # an e-mail address in a block's text
MAX_MAIL_BLOCKS = 6  # blocks holding an e-mail address a request speaking of one points at (when no more hold one)
#: a request speaking of a time of day ("the meeting time at the airport", "what time we leave", "集合时间", "几点")
_TIME_SAID = re.compile(r"\b(?:meeting|meet-?up|departure|arrival|start(?:ing)?|finish(?:ing)?|end(?:ing)?|opening|"
                        r"closing|check-?in|pick-?up|flight|boarding|gathering|call|dinner|lunch|breakfast)\s+times?\b|"
                        r"\bwhat\s+time\b|\bo['’]clock\b|\btime\s+of\s+day\b|几点|点钟|"
                        r"(?:集合|出发|到达|开会|见面|开始|结束|会议|起飞|登机)时间", re.IGNORECASE)
MAX_TIME_BLOCKS = 6  # blocks holding a clock time a request speaking of a time points at (when no more hold one)
#: a list of ids that says how many more it means ("p1, p2, p3 and 14 more")
_AND_MORE = re.compile(r"\band\s+(\d+)\s+more\b")
#: a request speaking of a definition ("the EPC Obligation definition", "where Works is defined", "“甲方”的定义")
_DEFINITION_SAID = re.compile(r"\bdefin(?:ition|itions|ed|es)\b|\bmeaning\b|定义|释义", re.IGNORECASE)
#: a paragraph defining a term: the term (quoted or not), then "means" ("EPC Obligation means ...", '"Works" shall
#: mean ...', "“甲方”是指...")
_DEFINES = re.compile(r"^\W*(?P<term>\w[^\n.;:]{0,80}?)\W*(?:\s+(?:means|shall\s+mean|has\s+the\s+meaning|is\s+defined\s+as)"
                      r"\b|是指|系指)", re.IGNORECASE)
#: the words after "before" that may name the heading or label a request places its target before
_BEFORE = re.compile(r"\b(?:before|above|preceding)\s+((?:\S+\s+){0,3}\S+)", re.IGNORECASE)
#: the words after "after" that may name the heading or label a request places its target after ("the sentence right
#: after paragraph 43", "the table following the Budget heading")
_AFTER = re.compile(r"\b(?:after|following|below)\s+((?:\S+\s+){0,3}\S+)", re.IGNORECASE)
_CONTENTS_LINE = re.compile(r"(?:\t|\.{3,}|…)\s*\d+\s*$")  # "Glossary\t71", "Glossary ..... 71"
#: the parts outside the body (:data:`autodw.analysis.state.render.PARTS`) by the words that name them
_PARTS = {"SECTION": r"\bheaders?\b|\bfooters?\b|\bmargins?\b|\blandscape\b|\bportrait\b|\borientation\b|"
                     r"\bwatermark\b|\bpage\s+(?:size|number|numbers|numbering|layout|setup)\b|"
                     r"页眉|页脚|页码|页边距|边距|横向|纵向|水印|纸张|分栏",
          "PROPERTIES": r"\bproperties\b|\bauthor\b|\bmetadata\b|\bkeywords\b|属性|作者",
          "IMAGES": r"\bimages?\b|\bpictures?\b|\bphotos?\b|\bfigures?\b|\bcharts?\b|\bgraphs?\b|\blogo\b|"
                    r"图片|图表|照片|插图|标志",
          "HYPERLINKS": r"\b(?:hyper)?links?\b|\burls?\b|链接|网址",
          "BOOKMARKS": r"\bbookmarks?\b|书签",
          "COMMENTS": r"\bcomments?\b|批注|评论",
          "FOOTNOTES": r"\bfootnotes?\b|脚注",
          "ENDNOTES": r"\bendnotes?\b|尾注",
          "TRACKED CHANGES": r"\btrack(?:ed)?\s+changes?\b|\brevisions?\b|修订",
          "STYLES": r"\bstyles?\b|样式"}
_PART_WORDS = {part: re.compile(words, re.IGNORECASE) for part, words in _PARTS.items()}


def body_ids(state: State) -> list[str]:
    """The body blocks' ids in document order (each table after its paragraph, as the rendering places it)."""
    return [el["id"] for el, _ in body_blocks(state)]


def pointed(state: State, text: str, matches: Iterable[Match] = ()) -> list[str]:
    """The body blocks `text` points at, most wanted first: the paragraphs it names by their whole text (quoted or
    not), those of a colour it describes them by, those defining a term it says when it speaks of a definition
    (:func:`defined`), those highlighted when it says so, those holding its rarest words, those that are only a mark
    it says is alone (:func:`marks_alone`), the list items under the first of those (:func:`items_under`), the
    paragraphs like them when it asks for more ("policy, purpose etc"), the tables it names
    (:func:`~autodw.agent.grounding.tables_named`) or by a header cell (:func:`header_named`), the last ones when it points at the end (of the
    sections `matches` found first, then of the body), the first ones when it points at the start ("the opening
    page": :func:`start_blocks`), the sections of the headings `matches` found, of the labels
    it names (:func:`labelled`) or numbers (:func:`sections_numbered`: "section 7") (up to :data:`MAX_SECTION_BLOCKS` long, a longer one by its outline),
    every block when it means the whole document (of up to :data:`MAX_WHOLE_BLOCKS`)."""
    said = undictated(text)
    order = body_ids(state)
    at = {bid: n for n, bid in enumerate(order)}
    to_end = at_end(text)
    nearest: list[str] = []  # titles only nearest a section it describes (:func:`_described`)
    # a quoted lead-in names its paragraph too ("the bullets under 'The contractor shall'")
    whole = said_whole(state, text, from_end=to_end)
    worded = [bid for bid, score, _ in ranked_blocks(state, said)[:MAX_WORD_BLOCKS] if score >= MIN_WORD_SCORE]
    # a range of labels in a section the request names ("2. AMENDED BUDGETS ... items c to f"): the runs in it
    inside = within(state, matches)
    out = whole + keys_said(state, said) + numbered(state, said, inside) + labels_nested(state, text)
    items = list_labelled(state, text)
    out += under_each(state, said) + items + items_after(state, said, items) + list_ends(state, said)
    out += repeated_start(state, said) + coloured(state, said)
    out += styled(state, said)  # "the chapter headings (the ones in Heading 1 style)"
    out += defined(state, said)  # "the EPC Obligation definition"
    out += highlighted(state, said)  # "刚才高亮的那几条再加粗一下"
    out += bolded(state, said)  # "make the bold section labels real headings"
    out += headings_typed(state, said)  # "the numbered section headings" typed as bold Normal lines
    out += part_labels(state, said)  # "每一条的条号" of statutes: every "Artigo ..." line
    out += chapters_under(state, said)  # "the chapter headings, and the line in brackets under each one"
    out += spanned(state, said, matches)  # "the section titles (18.33.010 Purpose down to 18.33.090 Incentives)"
    out += boxed(state, said)  # "make the box dark blue" of a paragraph given a border
    out += marks_held(state, said)  # "the possessives typed with an accent (Jung´s, Kant´s...)"
    out += mail_blocks(state, said)  # "译者序末尾那个雅虎油箱…那一行整个删掉"
    out += clock_blocks(state, said)  # "the paragraph with the meeting time at the airport"
    out += started_with(state, said)  # "the bold line ... begins with a stray dash" of a Persian book
    out += look_alikes_held(state, said)  # "评级Caa1，C和a其实是用俄文字母打的"
    out += worded  # "make the two blue section titles dark red"
    cells = cells_worded(state, said, worded)  # "the stakeholders list in the table, after managing agents"
    out += cells + [i for pid in cells[:MAX_MATCHES] for i in under_cell_heading(state, pid)]  # "the About Us bit"
    out += marks_alone(state, said)  # "there's a lonely full stop on its own line in the recommendations"
    out += abbreviations_spelled(state, said)  # "a row for НМЦК ... with the full form"
    # "Turn the packing items into a bulleted list: the sunscreen, ..." (5 lines): after what its words point at (a
    # line the instruction before it named comes first in the view of one referring back to both, dwh-491#8)
    out += runs_enumerated(state, said)
    # "the line above Figure 3-9": the block right before a paragraph it points at and places its target before
    out += [order[at[bid] - 1] for bid in whole[:MAX_MATCHES] + worded[:MAX_MATCHES]
            if at.get(bid, 0) > 0 and placed_before(state, said, bid)]
    out += [i for lead in whole[:MAX_MATCHES] + worded[:MAX_MATCHES] for i in items_under(state, lead)]
    # "Colorado is written with a zero ... in the South Central region": the short lines of the label's block
    out += [i for lead in whole[:MAX_MATCHES] + worded[:MAX_MATCHES] for i in lines_under_label(state, lead)]
    tables = tables_named(state, said)[:MAX_MATCHES]  # "the Цвет table", "the rates table", "Table 2"
    out += [t["id"] for t in tables] + [pid for t in tables for pid in table_caption(state, t)]
    out += header_named(state, said)
    if _TABLES_SAID.search(said):  # "那几个…小表格（三栏、中间空一栏的那种）": the others shaped like those it names
        out += tables_alike(state, [*out, *(m.id for m in matches)])
    if _MORE_ALIKE.search(said):
        out += alike(state, out)
    sections = [(m.id, m.under[1]) for m in matches if m.under]
    sections += titled(state, said)  # "the list of Secretariat staff": the section of "Secretariat of the Working Group"
    labels = labelled(state, said) + sections_numbered(state, said) + sections_roman(state, said)
    labels += chapters_numbered(state, said)
    labels += parts_numbered(state, said)  # "article 8" of Portuguese statutes: "Artigo Oitavo"
    labels += series_numbered(state, said)  # "Key 5" of a Persian book: "کلید پنجم"
    if not sections and not labels:  # "the termination section" of a Russian contract ("РАСТОРЖЕНИЕ КОНТРАКТА")
        labels, nearest = _described(state, said)
    # the label itself ("1.\tINDEPENDENT AUDITS"), not only its section, with the lines its title goes on in
    out += [bid for head, _ in labels for bid in (head, *title_continued(state, head))]
    # a title only nearest a description after them, the block under it after the rest ("致谢下面那段", dwh-374#8;
    # "挪到…基本操作前面", dwh-375#5)
    out += nearest
    nearby = [order[at[head] + 1] for head in nearest if head in at and at[head] + 1 < len(order)]
    sections += labels
    sections += [(pid, last) for pid in whole[:MAX_MATCHES] if (last := series_end(state, pid)) is not None]
    blocks = [section_blocks(state, order, at[head], at[last]) for head, last in sections if head in at and last in at]
    out += [bid for head, _ in sections if head in at and said_beside(state, said, head)
            for bid in preceding(state, order, at[head])]
    # "the definition right after paragraph 43": the first block after its section (cut before a paragraph looking
    # like its label, dwh-306#3)
    out += [bid for head, last in sections if head in at and last in at and said_beside(state, said, head, after=True)
            for bid in following(state, order, at[last])]
    if to_end:  # "the final paragraph of the support section": the section's end before the document's
        out += last_rows(state, out)  # "最后一条…那行" of a table its words point at: that table's last row
        out += [bid for section in blocks for bid in shown_last(state, section)]
        # the block after a section whose end it means: what an addition there goes before ("在这节末尾也加一个…", dwh-398#5)
        out += [bid for head, last in sections if head in at and last in at for bid in following(state, order, at[last])]
        out += end_blocks(state)
    if _START.search(said):  # "the bismillah line on the opening page"
        out += start_blocks(state)
    # "fix it there and in its table of contents entry": the entries of the headings of the sections it names
    out += entries_of(state, said, [*(head for head, _ in sections), *(bid for section in blocks for bid in section)])
    out += quoted_within(state, text, blocks)  # "第三章须知里有两处把“响应”打成了“相应”"
    out += italicised(state, said, [bid for section in blocks for bid in section])  # "the sentence in italics in section II"
    # the sections inside most others it names first ("“Новое в версии 3”这一章下面也有个 Импорт XHTML 小节": the
    # chapter's 38 blocks took the budget from the subsection's, dwh-375#1)
    out += tables_within(state, said, blocks)  # "In chapter 2, the staffing table" of a chapter of 90 blocks
    for section in sorted(blocks, key=lambda b: -len({tuple(o) for o in blocks if set(b) < set(o)})):
        out += section if fits(state, section) else outline(state, section)
    if _WHOLE.search(said) and len(order) <= MAX_WHOLE_BLOCKS:
        out += order
    return list(dict.fromkeys(out + nearby))


def cells_worded(state: State, said: str, ids: Iterable[str]) -> list[str]:
    """Of the first :data:`MAX_MATCHES` cell paragraphs of each body table among `ids` ranked by `said`'s (undictated
    text) words that few of the table's cell paragraphs hold (:func:`~autodw.agent.distinctive.ranked_blocks`), those
    the words name as they name blocks (:func:`~autodw.agent.distinctive.distinctive_blocks`), best first: a table its
    words point at shows the rows holding them past its first rows ("Managing Agents" of the stakeholders row, row
    11 of 13, dwh-390#8)."""
    tables = {t["id"]: t for t in state.get("tables", []) if "nested_in" not in t}
    out: list[str] = []
    for tid in (i for i in ids if i in tables):
        cells = [(p["id"], p.get("text", "")) for row in tables[tid].get("cell_details") or [] for c in row if c
                 for p in c.get("paragraphs") or [] if p.get("id")]
        out += [pid for pid, score, named in ranked_blocks(state, said, cells)[:MAX_MATCHES] if score >= MIN_SCORE or named]
    return out


def under_cell_heading(state: State, pid: str) -> list[str]:
    """The paragraphs after cell paragraph `pid` in its cell, when it is a heading, up to the next heading of its level
    or higher (at most :data:`MAX_SECTION_BLOCKS`): the section a heading inside a table cell heads ("In the About Us
    bit, swap the two placeholder bullets ... an empty bullet after them" of a brochure laid out in a table, dwh-512#6)."""
    custom = custom_headings(state)
    for t in state.get("tables", []):
        for cell in (c for row in t.get("cell_details") or [] for c in row if c):
            paras = cell.get("paragraphs") or []
            at = next((n for n, p in enumerate(paras) if p.get("id") == pid), None)
            if at is None:
                continue
            level = heading_level(paras[at].get("style"), custom)
            if level is None:
                return []
            out = []
            for p in paras[at + 1:]:
                other = heading_level(p.get("style"), custom)
                if other is not None and other <= level and p.get("text", "").strip():
                    break
                out.append(p["id"])
            return out[:MAX_SECTION_BLOCKS]
    return []


def within(state: State, matches: Iterable[Match]) -> set[str]:
    """The body blocks under the headings or lists `matches` found (their sections, in document order)."""
    order = body_ids(state)
    at = {bid: n for n, bid in enumerate(order)}
    return {bid for m in matches if m.under and m.under[0] in at and m.under[1] in at
            for bid in order[at[m.under[0]]:at[m.under[1]] + 1]}


def chapters_numbered(state: State, said: str) -> list[tuple[str, str]]:
    """The chapters `said` (undictated text) names by a Chinese chapter number ("第三章须知里", "第3章") or a chapter
    word and digits ("In chapter 2" of a Chinese tender, dwh-404#3): each line typed as that chapter's title by its
    Chinese number, in numerals or digits (:func:`chapter_typed`; a contents entry too) with the paragraph before the
    next chapter line (or the last paragraph); of the chapters it names by a range (:func:`chapters_ranged`), the
    title lines only (their sections, many long ones, are not what a request on several chapters shows first); a
    number more than :data:`MAX_MATCHES` lines hold names none; when no line is typed with its chapter's number,
    chapter N is the Nth chapter heading (:func:`chapter_headings`: "第六章…开头那段" of an Arabic report whose
    chapters are headed "أولاً-" to "خامس عشر-", dwh-543#6)."""
    numbers = {chinese_value(n) for n in _CHAPTER_SAID_NUMBER.findall(loose(said))}
    numbers |= {int(n) for n in _PART_SAID["chapter"].findall(said)}
    ranged = chapters_ranged(said) - numbers
    paras = state.get("paragraphs", [])
    if not numbers | ranged or not paras:
        return []
    lines = [(i, number) for i, p in enumerate(paras) if (number := chapter_typed(p)) is not None]
    if not lines:  # none typed with its number ("سادساً-	تدابير التنفيذ العامة"): the chapter headings in their order
        lines = [(i, n) for n, i in enumerate(chapter_headings(state), 1)]
    out = []
    for number in [*numbers, *sorted(ranged)]:
        held = [(n, i) for n, (i, label) in enumerate(lines) if label == number]
        if len(held) <= MAX_MATCHES:
            out += [(paras[i]["id"], paras[i]["id"] if number in ranged else paras[lines[n + 1][0] - 1]["id"]
                     if n + 1 < len(lines) else paras[-1]["id"]) for n, i in held]
    return out


def chapter_headings(state: State) -> list[int]:
    """The indexes (in the paragraphs) of the chapter headings: those with text of the highest heading level that
    two or more have (a single one above them is the document's title)."""
    custom = custom_headings(state)
    levels = [(i, level) for i, p in enumerate(state.get("paragraphs", []))
              if p.get("text", "").strip() and (level := heading_level(p.get("style"), custom)) is not None]
    counts = Counter(level for _, level in levels)
    chapter = min((level for level, n in counts.items() if n >= 2), default=None)
    return [i for i, level in levels if level == chapter]


#: chapters a request names by a range, in words or digits ("chapters two to five", "chapters 2-5"): its two ends
_CHAPTERS_RANGED = re.compile(r"(?<![^\W\d_])chapters?\s+(\d{1,2}|[^\W\d_]+)\s*(?:to|through|thru|-|–|—)\s*"
                              r"(\d{1,2}|[^\W\d_]+)(?![^\W\d_])", re.IGNORECASE)


#: in Chinese ("第十一到第十五章", "第3至5章"): its two ends
_CHINESE_CHAPTERS_RANGED = re.compile(rf"第\s*([{CHINESE_NUMERAL}\d]+)\s*章?\s*(?:到|至|~|～|-|–|—)\s*第?\s*"
                                      rf"([{CHINESE_NUMERAL}\d]+)\s*章")


def chapters_ranged(said: str) -> set[int]:
    """The chapter numbers `said` (undictated text) names by the ends of a range, in words (cardinals) or digits
    ("chapters two to five" names 2, 3, 4 and 5; at most :data:`MAX_SECTION_BLOCKS` of them): "now chapters two to
    five have an automatic 1. 2. 3. 4. in front of them" of a tender typed "第二章" ... "第五章" (dwh-515#5); in Chinese,
    "第十一到第十五章" (dwh-543#1)."""
    out: set[int] = set()
    chinese = [(chinese_value(a), chinese_value(b)) for a, b in _CHINESE_CHAPTERS_RANGED.findall(loose(said))]
    for first, last in [*_CHAPTERS_RANGED.findall(said), *chinese]:
        a, b = (n if isinstance(n, int) else int(n) if n.isdigit() else _CARDINALS.get(unaccented(n.casefold()))
                for n in (first, last))
        if a is not None and b is not None and a < b <= a + MAX_SECTION_BLOCKS:
            out |= set(range(a, b + 1))
    return out


def chapter_typed(p: dict[str, Any]) -> int | None:
    """The number of the chapter paragraph `p` is typed as the title of by its Chinese number ("第二章  采购项目需求":
    2; up to :data:`MAX_TITLE_CHARS` characters), or None."""
    text = loose(p.get("text", "")).strip()
    m = _CHAPTER_SAID_NUMBER.match(text) if len(text) <= MAX_TITLE_CHARS else None
    return None if m is None else chinese_value(m.group(1))


def chinese_value(numeral: str) -> int:
    """The value of a number written in digits or Chinese numerals ("十二": 12, "二十": 20, "一百零五": 105)."""
    if numeral.isdigit():
        return int(numeral)
    total, digit = 0, 0
    for c in numeral:
        if c in CHINESE_UNITS:
            total, digit = total + (digit or 1) * CHINESE_UNITS[c], 0
        else:
            digit = _CHINESE_DIGITS.get(c, 0)
    return total + digit


def quoted_within(state: State, text: str, sections: Iterable[list[str]]) -> list[str]:
    """The blocks of `sections` (lists of block ids) holding a text `text` quotes, when one to :data:`MAX_MATCHES` of
    a section's blocks hold it: a word many blocks of the document hold names the few of the section the request
    names ("第三章须知里有两处把“响应”打成了“相应”" of a tender saying 相应 rightly elsewhere, dwh-350#2)."""
    said = [loose(q.text) for q in quotes(text)]
    sections = [s for s in sections if s]
    if not said or not sections:
        return []
    wanted = {bid for section in sections for bid in section}
    texts = {bid: loose(body) for bid, body in block_texts(state) if bid in wanted}  # only the sections' blocks
    out = []
    for section in sections:
        for quote in said:
            held = [bid for bid in section if quote in texts.get(bid, "")]
            out += held if len(held) <= MAX_MATCHES else []
    return list(dict.fromkeys(out))


def keys_said(state: State, said: str) -> list[str]:
    """The paragraphs of the body table rows one cell of which holds only a key that `said` (undictated text) says as
    whole words, each written with a capital or as a number (an acronym, a name: "the WSIS entry" of a glossary names
    the row "WSIS | : | World Summit on the Information Society."), of up to :data:`MAX_LABEL_WORDS` words and
    :data:`MIN_KEY_CHARS` characters or more; a key more than :data:`MAX_MATCHES` cells hold names none. Those of the
    cells beside the key (the entry's text, what the request says of it: pointed at inside its row, a long one is
    shown whole, not cut on the row line, "UNCITRAL is the Commission on International Trade Law", dwh-474#5), the
    key's own when it is alone in its row."""
    capitals = {loose(w) for w in re.findall(r"\w+", said) if re.search(r"[^\W\d_]", w) and w != w.casefold()
                or w.isdigit()}  # "WSIS", "Germany", not "first" (the cell "FIRST")
    if not capitals:
        return []
    text, held = loose(said), {}  # type: tuple[str, dict[str, list[list[str]]]]
    for t in state.get("tables", []):
        if "nested_in" in t:
            continue
        for row in t.get("cell_details") or []:
            for cell in row:
                key = loose((cell or {}).get("text", "")).strip(_TRIM)
                if len(key) >= MIN_KEY_CHARS and len(key.split()) <= MAX_LABEL_WORDS and re.search(r"[^\W\d_]", key) \
                        and set(re.findall(r"\w+", key)) <= capitals and _says(text, key):
                    beside = [p["id"] for c in row if c and c is not cell for p in c.get("paragraphs") or []
                              if p.get("id")]
                    held.setdefault(key, []).append(list(dict.fromkeys(beside)) or sorted(cell_ids(row)))
    return [pid for rows in held.values() if len(rows) <= MAX_MATCHES for ids in rows for pid in ids]


def titled(state: State, said: str) -> list[tuple[str, str]]:
    """The sections (heading, last paragraph) of the headings holding a name `said` (undictated text) says
    (:func:`~autodw.agent.distinctive.names_held`) that are at most :data:`MAX_SECTION_BLOCKS` long: a request names
    a part by what it is about ("the list of Secretariat staff" is under the title "Secretariat of the Working Group
    on Internet Governance"), or by its title's words (:func:`headings_said`: "the Budget Dispute Resolution
    heading")."""
    custom = custom_headings(state)
    paras = state.get("paragraphs", [])
    at = {p["id"]: n for n, p in enumerate(paras)}
    out = []
    for pid in dict.fromkeys([*names_held(state, said), *headings_said(state, said)]):
        if pid in at and heading_level(paras[at[pid]].get("style"), custom) is not None \
                and (under := heading_section(state, pid)) is not None and at[under[1]] - at[pid] <= MAX_SECTION_BLOCKS:
            out.append((pid, under[1]))
    return out


def numbered(state: State, text: str, inside: Collection[str] = ()) -> list[str]:
    """The body paragraphs `text` names by their leading number: a section number it says ("the subsection titles 1.1,
    1.2 and 2.1" names "1.1 REGULACIONES..."), or each label of a range it names by its ends ("01CD到08CD" names
    "01CD：", "02CD：" ... "08CD："; "MEDIDA 1 to MEDIDA 22"; bare numbers, "3496到3500", the paragraphs "3496" ...
    "3500"), when the document has labels at both ends and the range
    is at most :data:`MAX_SECTION_BLOCKS` long; a number more than :data:`MAX_MATCHES` paragraphs start with names
    none; then those of a range of letters it names (:func:`lettered`; those `inside` when some are). A section number
    is found typed with a space after a dot too ("3.3" names "3. 3. Trauer", dwh-335#4)."""
    said, starting = loose(text), _starting(state)
    out = [pid for n in _SAID_NUMBER.findall(said)
           for pid in starting(r"\.\s?".join(map(re.escape, n.split("."))) + r"\.?(?:\s|$)")]
    out += [pid for labels in ranges(state, text) for held in labels for pid in held]
    return list(dict.fromkeys(out + lettered(state, text, inside)))


def ranges(state: State, text: str) -> list[list[list[str]]]:
    """Per range of numbered labels `text` names by its ends (:data:`_RANGE`, at most :data:`MAX_SECTION_BLOCKS`
    long, labels at both ends in the document): the paragraphs starting with each label, in its order (a label more
    than :data:`MAX_MATCHES` paragraphs start with: none)."""
    said, starting = loose(text), _starting(state)
    out = []
    for before, first, after, last in _RANGE.findall(said):
        a, b = int(first), int(last)
        if not a < b <= a + MAX_SECTION_BLOCKS:
            continue
        for prefix in (before[i:] for i in range(len(before) + 1)):  # "把第01CD": the label may start at any letter
            # bare numbers ("3496到3500") name the paragraphs that are only those numbers, not those starting with one
            end = re.escape(after) if prefix + after else "$"
            label = [starting(rf"{re.escape(prefix)}\s*0*{n}(?!\d)\s*{end}") for n in range(a, b + 1)]
            if label[0] and label[-1]:
                out.append(label)
                break
    return out


def _starting(state: State) -> Callable[[str], list[str]]:
    """The body paragraphs whose loose text a pattern matches at its start; none when more than :data:`MAX_MATCHES`."""
    starts = [(p["id"], loose(p.get("text", ""))) for p in state.get("paragraphs", [])]

    def starting(pattern: str) -> list[str]:
        held = [pid for pid, t in starts if re.match(pattern, t)]
        return held if len(held) <= MAX_MATCHES else []

    return starting


def under_each(state: State, text: str) -> list[str]:
    """The lines under each label of a range `text` names (:func:`ranges`), or of the labels it names by their word
    (:func:`each_labelled`: "the category names under each CD", dwh-405#3), when it speaks of what is under them ("the
    four category labels under each CD" of "01CD： to 08CD："): in each label's part (up to the next label; the last
    one's no longer than the longest other), the non-empty paragraphs of a kind and look every part has, at most
    :data:`MAX_UNDER_EACH` in each (the few labels, not the many lines under them), after the labels themselves."""
    said = undictated(text)
    if not _UNDER.search(said):
        return []
    paras = state.get("paragraphs", [])
    at = {p["id"]: n for n, p in enumerate(paras)}
    out: list[str] = []
    for labels in [*ranges(state, text), [[pid] for pid in each_labelled(state, said)]]:
        heads = sorted(at[held[0]] for held in labels if held)
        if len(heads) < 2:
            continue
        longest = max(b - a for a, b in zip(heads, heads[1:]))
        parts = [range(a + 1, b) for a, b in zip(heads, [*heads[1:], min(heads[-1] + longest, len(paras))])]
        counts = [Counter(_kind(paras[n]) for n in part if paras[n].get("text", "").strip()) for part in parts]
        kinds = {k for k in counts[0] if all(0 < c[k] <= MAX_UNDER_EACH for c in counts)}
        lines = [paras[n]["id"] for part in parts for n in part
                 if paras[n].get("text", "").strip() and _kind(paras[n]) in kinds]
        # the labels first: a step on them is shown them before the many lines under them (dwh-516#3)
        out += [paras[n]["id"] for n in heads] + lines if lines else []
    return list(dict.fromkeys(out))


#: "under each CD", "below every chapter": the word of the labels a request speaks of what is under
_UNDER_EACH = re.compile(r"\b(?:under|below|beneath|underneath)\s+(?:each|every)\s+(?:one\s+of\s+"
                         r"the\s+)?([^\W_]+)", re.IGNORECASE)


def each_labelled(state: State, said: str) -> list[str]:
    """The short lines holding the word `said` (undictated text) names labels by after "under each"
    (:data:`_UNDER_EACH`: "under each CD" names "01CD：" ... "08CD："), those of the kind (:func:`_kind`) most of them
    are of, when two or more are of it, up to :data:`MAX_SECTION_BLOCKS`; none when it names none; when no short line
    holds the word, the labels it names by example (:func:`exemplified`)."""
    words = [rf"(?<![^\W\d_]){re.escape(w.casefold())}(?![^\W\d_])" for w in _UNDER_EACH.findall(said)]
    if not words:
        return []
    held = [p for p in state.get("paragraphs", []) if _short(p) is not None
            and any(re.search(w, loose(p.get("text", ""))) for w in words)]
    if not held:  # "the disc labels (01CD, 02CD and so on) ... under each disc": the labels it names by example
        return exemplified(state, said)
    kinds = Counter(_kind(p) for p in held).most_common(1)
    if not kinds or not 2 <= kinds[0][1] <= MAX_SECTION_BLOCKS:
        return []
    return [p["id"] for p in held if _kind(p) == kinds[0][0]]


def exemplified(state: State, said: str) -> list[str]:
    """The short lines written as two or more of the paragraphs `said` (undictated text) names whole are but for
    their numbers (:func:`_numbered_like`): "the disc labels (01CD, 02CD and so on)" names every "NNCD：" line, up to
    :data:`MAX_ALIKE` (dwh-516#3)."""
    paras = [p for p in state.get("paragraphs", []) if p.get("text", "").strip()]
    return _of_kinds(paras, said_whole(state, said), _numbered_like)


def _list_kind(p: dict[str, Any]) -> tuple[Any, ...]:
    """A paragraph's style, list and list level."""
    lst = p.get("list") or {}
    return p.get("style"), lst.get("num_id"), lst.get("level")


def _kind(p: dict[str, Any]) -> tuple[Any, ...]:
    """A paragraph's style, list and list level (:func:`_list_kind`), and how it looks
    (:func:`~autodw.agent.grounding.look`)."""
    return _list_kind(p), look(p)


def lettered(state: State, text: str, inside: Collection[str] = ()) -> list[str]:
    """The paragraphs typed with each letter of a range `text` names by its ends ("the section titles A to H" names
    "A.\tIntroduction" ... "H.\tA way forward"), in the same case: each run of them in document order from the first
    letter to the last, one after the other (a document with one "A." to "D." series per chapter: those of every
    chapter that reaches the last letter; contents lines, ending in a page number, aside), when the range is at most
    :data:`MAX_SECTION_BLOCKS` long; of runs some of which are all `inside` (ids: the sections the request names), those
    only (a handbook pasted several times over has its "c." to "f." runs in every chapter of every copy, dwh-287#5)."""
    runs: list[list[str]] = []
    for first, last in _LETTER_RANGE.findall(text):
        if first.isupper() != last.isupper() or not 0 < ord(last) - ord(first) < MAX_SECTION_BLOCKS:
            continue
        run: list[str] = []
        for p in state.get("paragraphs", []):
            m = _TYPED_LABEL.match(p.get("text", ""))
            letter = m.group(2) if m is not None else ""
            if len(letter) != 1 or _CONTENTS_LINE.search(p["text"]) or not first <= letter <= last:
                continue
            run = [p["id"]] if letter == first else run + [p["id"]] if run and ord(letter) == ord(first) + len(run) else []
            if letter == last and run:
                runs.append(run)
                run = []
    held = [run for run in runs if set(run) <= set(inside)]
    return [pid for run in held or runs for pid in run]


def numbers_held(state: State, text: str) -> list[str]:
    """The body blocks holding a number of three digits or more or a percentage that `text` says (not in what it
    dictates), or a smaller number it says with a unit word that is no length or size (a quantity: "5年" held as
    "5 лет", any word after it), of each number at most :data:`MAX_WORD_BLOCKS` blocks hold, rarest first ("the
    paragraph about the police collecting data since 1995" on an Arabic document names the few paragraphs saying 1995,
    dwh-262#7; "the 10% advance payment" of a Chinese tender those saying 10％, dwh-286#10; "租期先写3年，5年太长了"
    of a Russian form the line "сроком на 5 лет.", dwh-302#8), or one it says the document holds (:data:`_HELD_SAID`:
    "23 kg now, not 20" of a Hebrew letter, the line "... 20 ק"ג", dwh-383#4); first, when it says two numbers or
    more, the blocks holding them all if at most :data:`MAX_WORD_BLOCKS` do, each of them in many ("the statistics
    table for 2004 to 2008" of an Arabic report: the two tables and three paragraphs saying both years, dwh-314#2)."""
    return _ranked_held(_blocks_by_number(state, text))


def _blocks_by_number(state: State, text: str) -> list[list[str]]:
    """For each number `text` says (:func:`_numbers_said`), the body blocks holding it."""
    patterns = _numbers_said(text)
    blocks = block_texts(state) if patterns else []
    return [[bid for bid, body in blocks if re.search(pattern, body)] for pattern in patterns]


def _ranked_held(held: list[list[str]]) -> list[str]:
    """:func:`numbers_held`'s order of the blocks holding each number (`held`): those holding them all, then by
    number, the rarest first."""
    together = [bid for bid in held[0] if all(bid in ids for ids in held[1:])] if len(held) > 1 else []
    together = together if len(together) <= MAX_WORD_BLOCKS else []
    return list(dict.fromkeys([*together, *(bid for ids in sorted(held, key=len) if len(ids) <= MAX_WORD_BLOCKS
                                            for bid in ids)]))


def _numbers_said(text: str) -> list[str]:
    """The patterns of the numbers :func:`numbers_held` looks for, and of a date or a clock time `text` says
    (:data:`_SHAPES`: any of its shape, the value it replaces: "Wednesday 15/4/2015 at 06:00", dwh-383#6)."""
    said = undictated(text)
    quantities = [rf"(?<![\d.,]){n}(?![\d]|[.,]\d)\s*[^\W\d_]" for n, unit in _QUANTITY_SAID.findall(said)
                  if not any(unit.casefold().startswith(u) for u in (*UNITS, *_SIZE_UNITS))]
    patterns = [rf"(?<![\d.,]){re.escape(n)}(?![\d]|[.,]\d)" if n else rf"(?<![\d.,]){re.escape(p)}\s*[%％]"
                for n, p in dict.fromkeys(_NUMBER_SAID.findall(said))] + list(dict.fromkeys(quantities))
    patterns += [rf"(?<![\d.,/:-]){n}(?![\d]|[.,/:-]\d)" for n in dict.fromkeys(_HELD_SAID.findall(said))]
    return patterns + [shape for shape in _SHAPES if re.search(shape, said)]


def numbers_worded(state: State, text: str) -> list[str]:
    """The body blocks holding, as a word followed by another (a quantity: "quatro anos"), a number `text` says in
    words (:data:`_CARDINALS`, in any of their languages: "four" of "from three years to four" held as "quatro"),
    two or more, of each number at most :data:`MAX_WORD_BLOCKS` blocks hold, rarest first: where an earlier
    instruction's number now is ("scratch the term change ... put that back", dwh-354#7)."""
    values = [v for w in re.findall(r"[^\W\d_]+", undictated(text)) if (v := _CARDINALS.get(unaccented(w.casefold()), 0)) > 1]
    if not values:
        return []
    blocks = block_texts(state)
    held = []
    for value in dict.fromkeys(values):  # one search a block: its words, accented or not ("três", "dieciséis")
        words = "|".join("".join(f"[{_ACCENTED[c]}]" if c in _ACCENTED else c for c in w)
                         for w, v in _CARDINALS.items() if v == value)
        said = re.compile(rf"(?<![^\W\d_])(?:{words})(?=\s+[^\W\d_])", re.IGNORECASE)
        held.append([bid for bid, body in blocks if said.search(body)])
    return list(dict.fromkeys(bid for ids in sorted(held, key=len) if len(ids) <= MAX_WORD_BLOCKS for bid in ids))


def numbers_missed(state: State, text: str, pointed: Collection[str], inside: Collection[str] = ()) -> list[str]:
    """The blocks holding the numbers `text` says (:func:`numbers_held`), those holding the most of them first, when
    none of the `pointed` ones holds as many as they do ("15/4/2015 at 06:00, still gate 32": of the line holding a
    date, a time and 32, not the one holding 2015 the rare words point at, dwh-383#6; its
    words point elsewhere: "希伯来文那个区段（0590到07BF）下面的示例字符" at the title holding 字符, dwh-362#5); of them,
    those `inside` the section it names when some are ("ascii only 那部分，2000到2EFF那一项", dwh-362#7)."""
    by_number = _blocks_by_number(state, text)
    held = _ranked_held(by_number)
    count = {bid: sum(bid in ids for ids in by_number) for bid in held}
    most = max(count.values(), default=0)
    if any(count.get(bid) == most for bid in pointed):
        return []
    held = sorted(held, key=lambda bid: -count[bid])  # those holding the most of them first
    return [bid for bid in held if bid in inside] or held


def defined(state: State, said: str) -> list[str]:
    """The body paragraphs defining a term (:data:`_DEFINES`: "EPC Obligation means ...") that `said` (undictated
    text) says whole, when it speaks of a definition ("the EPC Obligation definition": the term's words are in many
    paragraphs, its definition opens with them); a term more than :data:`MAX_MATCHES` paragraphs define names none."""
    if not _DEFINITION_SAID.search(said):
        return []
    text = loose(said)
    held: dict[str, list[str]] = {}
    for p in state.get("paragraphs", []):
        if (m := _DEFINES.match(p.get("text", ""))) is not None:
            held.setdefault(loose(m.group("term")), []).append(p["id"])
    return [pid for term, ids in held.items() if len(ids) <= MAX_MATCHES and _says(text, term) for pid in ids]


def _says(text: str, key: str) -> bool:
    """Whether `text` says `key` as whole words (Chinese, which runs into the words around it: anywhere)."""
    cjk = re.search(r"[\u3040-\u9fff]", key) is not None
    return re.search(re.escape(key) if cjk else rf"(?<!\w){re.escape(key)}(?!\w)", text) is not None


def list_labelled(state: State, text: str) -> list[str]:
    """The list items `text` names by their label, its number as the list shows it and without its punctuation, said
    after "第", "item" or "number" (not in the text it dictates), before "那条" or "这一项" ("一千零一十那条", dwh-386#6) or
    quoted whole ("从第三千零一条开始" names the item
    labelled "三千零一、", "“二千”那一条" the one labelled "二千、"; not inside a longer number: "第三千零一条" names no
    "三千"); an item typed with its label too ("item h" names "h) Dar execução ...", dwh-354#8; not as an end of a
    range: "items c to f" are :func:`lettered`'s); a label more than :data:`MAX_MATCHES` items hold names none. A
    request speaking of a box names the items of the boxes first (:func:`stories`: "same box: question 5" of a box of
    questions, dwh-474#2), the body's when it names none of theirs."""
    body, *framed = stories(state)
    in_boxes = _labelled_in([p for box in framed for p in box], text) if _BOX_WORD.search(undictated(text)) else []
    return in_boxes or _labelled_in(body, text)


def _labelled_in(paragraphs: list[dict[str, Any]], text: str) -> list[str]:
    """The paragraphs of `paragraphs` :func:`list_labelled` finds `text` names by their label."""
    said = undictated(text)
    held: dict[str, list[str]] = {}
    typed_keys = set()
    for p in paragraphs:
        key = label_key(p)
        if key and key.casefold() in text.casefold():
            held.setdefault(key, []).append(p["id"])
            if not (p.get("list") or {}).get("label"):
                typed_keys.add(key)
    out = []
    unranged = _LETTER_RANGE.sub(" ", said)
    for key, ids in held.items():
        same = (f"[{CHINESE_NUMERAL}]" if all(c in CHINESE_NUMERAL for c in key) else r"\d" if key.isdigit()
                else "[A-Za-z]" if key.isascii() and key.isalpha() else r"\w")  # what may not go on the label
        alone = rf"(?<!{same}){re.escape(key)}(?!{same})"
        if len(ids) <= MAX_MATCHES and (re.search(_LABEL_BEFORE + alone, unranged if key in typed_keys else said,
                                                  re.IGNORECASE)
                                        or re.search(alone + _LABEL_AFTER, said)
                                        or re.search(_LABEL_QUOTED.format(re.escape(key)), text, re.IGNORECASE)):
            out += ids
    return out


#: a request speaking of the items after one it names ("后面几条的编号往前顺一下", "renumber the ones after it")
_FOLLOWING_ITEMS = re.compile(r"(?:后面|后边|之后|以后|往后|下面)的?(?:几|各|这些|那些|所有|其余|其他)?[条项个]|后续的?[条项]|"
                              r"重新编号|\b(?:the\s+)?(?:following|subsequent|later|remaining)\s+(?:items?|entries|ones|"
                              r"points|numbers|lines)\b(?!\s*:)|\b(?:items?|entries|ones|points|numbers|lines|the\s+rest)\s+(?:after|"
                              r"below|following)\s+(?:it|that|this|them)\b|\brenumber\w*", re.IGNORECASE)


def items_after(state: State, said: str, ids: Iterable[str]) -> list[str]:
    """The lines after each of the first :data:`MAX_MATCHES` of `ids` (items a request names by their label) in its
    run of lines typed with labels of its kind (:func:`typed_run`), when `said` speaks of the items after it
    (:data:`_FOLLOWING_ITEMS`): what a deletion or an insertion renumbers ("参考文献第2条…删掉，后面几条的编号往前顺一下":
    references 3 to 5 after reference 2, dwh-494#8)."""
    if not _FOLLOWING_ITEMS.search(said):
        return []
    runs = [(pid, typed_run(state, pid)) for pid in list(ids)[:MAX_MATCHES]]  # each in document order, `pid` in it
    return list(dict.fromkeys(i for pid, run in runs if run for i in run[run.index(pid) + 1:]))


#: a request asking to make lines into a list ("Turn the packing items into a bulleted list", "做成项目符号列表")
_LIST_MADE = re.compile(r"\b(?:into|as|in|to)\s+(?:an?\s+)?(?:(?:bullet(?:ed)?|numbered|ordered|unordered|proper)\s+)?"
                        r"list\b|\bbullet(?:ed|s|\s+points?)\b|(?:做成|改成|变成|弄成|换成|设成|设为|转成)(?:项目符号|编号|圆点)?"
                        r"(?:列表|清单)|项目符号", re.IGNORECASE)
_CLAUSE = re.compile(r"[:：.!?。！？;；\n]")  # where a clause of a request ends (an enumeration is inside one)
_ENUMERATION_SEPARATOR = re.compile(r"\s*[,，、]\s*(?:(?:and|or|&)\s+)?|\s+(?:and|or|&)\s+|以及|(?<![、，,])(?:和|及|与)"
                                    r"(?![平谐好时格会其否])", re.IGNORECASE)
MIN_ENUMERATED = 3  # things a request lists ("A, B and C") that it may mean as as many lines
MAX_ENUMERATED_WORDS = 5  # words of one thing a request lists ("spare reading glasses"; a longer one is a clause)
MAX_ENUMERATED_CHARS = 12  # characters of one thing a request lists in a script written without spaces
MAX_ITEM_WORDS = 20  # words of a line that may be an item of a list (a longer one is prose)


def enumerated(said: str) -> int:
    """How many things the longest enumeration of `said` lists, each of up to :data:`MAX_ENUMERATED_WORDS` words or
    :data:`MAX_ENUMERATED_CHARS` characters of a script without spaces, in one clause ("...: the sunscreen, spare
    reading glasses, sunglasses, medicines and the passport copy" lists 5); 0 for fewer than :data:`MIN_ENUMERATED`."""
    most = 0
    for clause in _CLAUSE.split(said):
        things = [t.strip() for t in _ENUMERATION_SEPARATOR.split(clause)]
        if all(t and (len(t.split()) <= MAX_ENUMERATED_WORDS if " " in t or t.isascii() else
                      len(t) <= MAX_ENUMERATED_CHARS) for t in things):
            most = max(most, len(things))
    return most if most >= MIN_ENUMERATED else 0


def runs_enumerated(state: State, said: str) -> list[str]:
    """When `said` asks to make lines into a list (:data:`_LIST_MADE`) and lists the N things they are
    (:func:`enumerated`), the one run of N lines one after the other (no empty line nor table between them) of a kind
    and look (:func:`_kind`) and of up to :data:`MAX_ITEM_WORDS` words each, with no line of that kind right before
    or after it ("Turn the packing items into a bulleted list: the sunscreen, spare reading glasses, sunglasses,
    medicines and the passport copy" of a Hebrew letter: its five plain lines after a bold one, dwh-491#5); none when
    no run or more than one fits."""
    n = enumerated(said) if _LIST_MADE.search(said) else 0
    if not n:
        return []
    runs: list[list[dict[str, Any]]] = []
    kind = None
    for el, table in body_blocks(state):
        now = None if table or not el.get("text", "").strip() else _kind(el)
        if now is not None and now == kind:
            runs[-1].append(el)
        elif now is not None:
            runs.append([el])
        kind = now
    fitting = [run for run in runs if len(run) == n and all(len(p["text"].split()) <= MAX_ITEM_WORDS for p in run)]
    return [p["id"] for p in fitting[0]] if len(fitting) == 1 else []


def stories(state: State) -> list[list[dict[str, Any]]]:
    """The body's paragraphs, then each box's (:func:`~autodw.analysis.state.render.boxes`), in order."""
    return [state.get("paragraphs", []), *boxes(state)]


def label_key(p: dict[str, Any]) -> str:
    """The label paragraph `p` is an item by, its list's or typed (:data:`_TYPED_LABEL`), without its punctuation
    ("5." and "5)" are "5"); "" for none."""
    typed = _TYPED_LABEL.match(p.get("text", ""))
    listed = (p.get("list") or {}).get("label")
    return re.sub(r"^[\W_]+|[\W_]+$", "", listed or (typed.group(2) if typed else ""))


def labels_around(state: State, pid: str) -> list[str]:
    """The paragraphs labelled with the number or letter right before and right after paragraph `pid`'s label, its
    list's or typed (:func:`label_key`), the nearest each side in its story (:func:`stories`) within
    :data:`MAX_SECTION_BLOCKS` paragraphs: the items of its sequence that a request naming it compares it with
    ("question 5 is an automatic numbered item while all the other questions just have the number typed in. make it
    look like the rest", dwh-474#2: "4." and "6." typed around the auto-numbered "5.")."""
    for story in stories(state):
        at = next((n for n, p in enumerate(story) if p["id"] == pid), None)
        if at is None:
            continue
        key = label_key(story[at])
        if key.isdigit():
            wanted = (str(int(key) - 1), str(int(key) + 1))
        elif len(key) == 1 and key.isascii() and key.isalpha():
            wanted = (chr(ord(key) - 1), chr(ord(key) + 1))
        else:
            return []
        out = []
        for step, label in zip((-1, 1), wanted):
            out += next(([story[n]["id"]] for n in range(at + step, at + step * (MAX_SECTION_BLOCKS + 1), step)
                         if 0 <= n < len(story) and label_key(story[n]) == label), [])
        return out
    return []


def _depth(number: re.Match[str]) -> int:
    """The depth of a section number matched by :data:`SECTION_NUMBER` ("6" 0, "6.2" 1, "6.2." 1)."""
    return number.group(0).strip().strip(".").count(".")


def labels_nested(state: State, text: str) -> list[str]:
    """The paragraphs typed with a label `text` names with its level's word (:data:`_LEVEL_LABEL`) in the part of
    another label it names, each with that label ("subsection B, item 2" or "item 2 under B": the line labelled "2",
    its full stop typed or not, after a "B." line and before the next line labelled like B, a line with a section
    number like "18.33.040" or :data:`MAX_SECTION_BLOCKS` lines; a list item by its list label too), the outer one of
    a kind (number, capital, small letter) the document types first; a pair of labels more than :data:`MAX_MATCHES`
    parts hold names none (dwh-348#2)."""
    said = list(dict.fromkeys(a or b for a, b in _LEVEL_LABEL.findall(undictated(text))))
    if len(said) < 2:
        return []
    labels = []
    for p in state.get("paragraphs", []):
        typed = _LOOSE_LABEL.match(p.get("text", ""))
        label = re.sub(r"^[\W_]+|[\W_]+$", "", (p.get("list") or {}).get("label") or "") or (typed and typed.group(1))
        ends = bool((number := SECTION_NUMBER.match(p.get("text", ""))) and _depth(number))
        labels.append((p["id"], label or None, ends))
    # the kinds by where each is first typed: an outline's outer labels come first ("A." before its "1.")
    rank = {kind: n for n, kind in enumerate(dict.fromkeys(_label_kind(label) for _, label, _ in labels if label))}
    out = []
    for outer, inner in itertools.permutations(said, 2):
        if rank.get(_label_kind(outer), 0) >= rank.get(_label_kind(inner), 0):
            continue
        held = []
        for n, (pid, label, _) in enumerate(labels):
            if label != outer:
                continue
            for qid, other, ends in labels[n + 1:n + 1 + MAX_SECTION_BLOCKS]:
                if ends or other is not None and _label_kind(other) == _label_kind(outer):
                    break
                if other == inner:
                    held += [pid, qid]
                    break
        if len(held) <= 2 * MAX_MATCHES:
            out += held
    return list(dict.fromkeys(out))


def _label_kind(label: str) -> str:
    """Whether a label is a number, a capital or a small letter (those of one level of an outline are of one kind)."""
    return "number" if label.isdigit() else "capital" if label.isupper() else "small"


def list_ends(state: State, text: str) -> list[str]:
    """The last items of the :data:`MAX_MATCHES` longest lists, longest first, when `text` points at the end of a list
    ("列表最后再加一条", "列表结束以后再补一句", "at the bottom of the list"): where the list ends, not the document."""
    if not _LIST_END.search(text):
        return []
    lists: dict[Any, list[str]] = {}
    for p in state.get("paragraphs", []):
        if (p.get("list") or {}).get("num_id") is not None:
            lists.setdefault(p["list"]["num_id"], []).append(p["id"])
    return [ids[-1] for ids in sorted(lists.values(), key=len, reverse=True)[:MAX_MATCHES]]


def last_rows(state: State, ids: list[str]) -> list[str]:
    """The paragraphs of the last row of each table among `ids`, for a request that points at the end: "the last
    entry" of a table it names, or whose words it says, is its last row (a long table's is past the rows shown)."""
    tables = {t["id"]: t for t in state.get("tables", [])}
    return [p["id"] for bid in ids if bid in tables and tables[bid].get("cell_details")
            for cell in tables[bid]["cell_details"][-1] for p in (cell or {}).get("paragraphs", []) if p.get("id")]


def rows_through(state: State, text: str, ids: Iterable[str]) -> list[str]:
    """The cell paragraphs of every row of each table among `ids` or holding a cell paragraph of them (the first
    :data:`MAX_MATCHES`, of up to :data:`MAX_THROUGH_ROWS` rows), when `text` (what it does not dictate) speaks of
    columns or every row: a column runs through the rows past those a table shows ("Same table: the last three columns
    are all code, so put them in Consolas", dwh-381#5); the tables in the order `ids` first point at them."""
    if not _THROUGH_ROWS.search(undictated(text)):
        return []
    order = list(dict.fromkeys(ids))
    ids, rank = set(order), {bid: n for n, bid in enumerate(order)}
    tables = [t for t in state.get("tables", []) if "nested_in" not in t and len(t.get("cell_details") or []) <=
              MAX_THROUGH_ROWS and (t["id"] in ids or any(ids & cell_ids(row) for row in t.get("cell_details") or []))]
    # in the order `ids` point at them: the request's own table before those the one before it pointed at (dwh-486#8)
    tables.sort(key=lambda t: min([rank[i] for row in t["cell_details"] for i in cell_ids(row) & ids]
                                  + [rank.get(t["id"], len(rank))]))
    return list(dict.fromkeys(p["id"] for t in tables[:MAX_MATCHES] for row in t["cell_details"] for c in row if c
                              for p in c.get("paragraphs") or [] if p.get("id")))


def items_under(state: State, pid: str) -> list[str]:
    """The list items right after paragraph `pid` that are deeper than it or of another list (the bullets under "The
    contractor shall:", the steps under a subsection line; empty paragraphs between them aside), up to
    :data:`MAX_SECTION_BLOCKS`."""
    paras = state.get("paragraphs", [])
    at = next((n for n, p in enumerate(paras) if p["id"] == pid), None)
    if at is None:
        return []
    lead = paras[at].get("list") or {}
    out = []
    for p in paras[at + 1:]:
        lst = p.get("list") or {}
        if lst.get("level") is None and not p.get("text", "").strip():
            continue  # the empty paragraphs a label or its items are spaced out with ("Medidas de Corto plazo:")
        if lst.get("level") is None or (lst.get("num_id") == lead.get("num_id") and lst["level"] <= lead.get("level", -1)):
            break
        out.append(p["id"])
    return out[:MAX_SECTION_BLOCKS]


#: a request speaking of a list or its items: "the bulleted list", "two items", "the bullet points", "列表里", "这几条要点"
_LIST_SAID = re.compile(r"\b(?:(?:bullet(?:ed)?\s+|numbered\s+)?lists?|bullet(?:ed)?(?:\s+points?)?|bullets|items?)\b"
                        r"|列表|清单|条目|要点|项目符号|リスト|箇条書き", re.IGNORECASE)


def speaks_of_list(text: str) -> bool:
    """Whether `text` (what it says, not what it dictates) speaks of a list or its items (:data:`_LIST_SAID`)."""
    return _LIST_SAID.search(undictated(text)) is not None


def lines_under_label(state: State, pid: str) -> list[str]:
    """The short lines (of up to :data:`MAX_LABEL_WORDS` words each) right after body paragraph `pid`, when it is a
    short line itself heading a block set apart by empty paragraphs (one before it, or none: the first paragraph;
    one right after the lines, at most :data:`MAX_LABEL_BLOCK` of them): the block a typed label heads ("Colorado is
    written with a zero instead of an O in the South Central region" of a list of regions typed "906 SOUTH CENTRAL",
    " (AR,C0,KS,LA,MO,OK,", "  TX)", then an empty line, dwh-511#5)."""
    paras = state.get("paragraphs", [])
    at = next((n for n, p in enumerate(paras) if p["id"] == pid), None)
    if at is None or _short(paras[at]) is None or at > 0 and paras[at - 1].get("text", "").strip():
        return []
    lines = list(itertools.takewhile(lambda p: _short(p) is not None, paras[at + 1:at + 2 + MAX_LABEL_BLOCK]))
    end = at + 1 + len(lines)
    closed = 0 < len(lines) <= MAX_LABEL_BLOCK and end < len(paras) and not paras[end].get("text", "").strip()
    return [p["id"] for p in lines] if closed else []


def said_beside(state: State, text: str, head: str, after: bool = False) -> bool:
    """Whether `text` points before (`after`: after) the heading or label `head` ("the list right before the
    glossary", "the sentence right after paragraph 43"): a word of its of :data:`MIN_LABEL_WORD` letters or more, or
    its section number named as one ("paragraph 43"), is said within a few words after "before", "above" or
    "preceding" (:data:`_BEFORE`; `after`: "after", "following" or "below", :data:`_AFTER`) (a contents line, its page
    number after a tab or dot leader, is none)."""
    paras = {p["id"]: p for p in state.get("paragraphs", [])}
    text_of = paras[head].get("text", "") if head in paras else ""
    if _CONTENTS_LINE.search(text_of):
        return False
    words = {w for w in re.findall(r"\w+", loose(text_of)) if len(w) >= MIN_LABEL_WORD}
    number = SECTION_NUMBER.match(loose(text_of))
    numbers = {number.group(0).strip().rstrip(".")} if number else set()
    return any(set(re.findall(r"\w+", loose(said))) & words or {a or b for a, b in _PART_NUMBER.findall(loose(said))} & numbers
               for said in (_AFTER if after else _BEFORE).findall(text))


def placed_before(state: State, text: str, pid: str) -> bool:
    """Whether `text` places its target before or above paragraph `pid` (:data:`_BEFORE`) naming it by its first two
    words ("the line above Figure 3-9" of the caption "Figure 3-9: Help section ...", not "The figure below shows"
    nor the caption's line in a table of figures)."""
    text_of = next((p.get("text", "") for p in state.get("paragraphs", []) if p["id"] == pid), "")
    lead = re.findall(r"\w+", loose(text_of))[:2]
    return bool(lead) and not _CONTENTS_LINE.search(text_of) and any(set(lead) <= set(re.findall(r"\w+", loose(said))) for said in _BEFORE.findall(text))


def preceding(state: State, order: list[str], head: int) -> list[str]:
    """The body blocks right before the heading or label at `head` (in `order`), back to the heading before them
    (itself included), up to :data:`MAX_SECTION_BLOCKS`: the section a request places "before" a named one."""
    paras = {p["id"]: p for p in state.get("paragraphs", [])}
    custom = custom_headings(state)
    start = head
    while start > 0 and head - start < MAX_SECTION_BLOCKS:
        start -= 1
        para = paras.get(order[start], {})
        if heading_level(para.get("style"), custom) is not None and para.get("text", "").strip():
            break
    return order[start:head]


def following(state: State, order: list[str], last: int) -> list[str]:
    """The first body block after the one at `last` (in `order`) that shows something (a table, a paragraph with text
    or a picture): what a request places "right after" a section that ends at `last`."""
    paras = {p["id"]: p for p in state.get("paragraphs", [])}
    return next(([bid] for bid in order[last + 1:]
                 if bid not in paras or paras[bid].get("text", "").strip() or paras[bid].get("images")), [])


def section_blocks(state: State, order: list[str], head: int, last: int) -> list[str]:
    """The body blocks after the heading or label at `head` (in `order`) up to the paragraph at `last`, and the tables
    right after that paragraph: a section is counted in blocks (the table under the label "审 定 意 见" is in it)."""
    paragraphs = {p["id"] for p in state.get("paragraphs", [])}
    end = last + 1
    while end < len(order) and order[end] not in paragraphs:
        end += 1
    return order[head + 1:end]


def fits(state: State, section: list[str]) -> bool:
    """Whether `section` is pointed at whole: up to :data:`MAX_SECTION_BLOCKS` blocks, or half as many again of short
    lines (code, names) of up to :data:`MAX_SHORT_SECTION_CHARS` characters in all (no table), or more lines whose
    text and :data:`LINE_CHARS` a line come to that many."""
    if len(section) <= MAX_SECTION_BLOCKS:
        return True
    paras = {p["id"]: p for p in state.get("paragraphs", [])}
    if not all(bid in paras for bid in section):
        return False
    chars = sum(len(paras[bid].get("text", "")) for bid in section)
    # more of them when their lines, each with its id, style and format, still come to that much (a font's sample
    # characters, each under its range's line: 52 lines of 675 characters, dwh-540#4)
    return chars <= MAX_SHORT_SECTION_CHARS and (len(section) <= MAX_SECTION_BLOCKS * 3 // 2
                                                 or chars + LINE_CHARS * len(section) <= MAX_SHORT_SECTION_CHARS)


def outline(state: State, section: list[str]) -> list[str]:
    """A long section's opening (its first :data:`SECTION_OPENING` blocks with text) and its top-level lines: the
    headings of the highest level in it, or else its list items of the lowest list level ("the subsection lines under
    Procedure"), up to :data:`MAX_SECTION_BLOCKS` in all."""
    paras = {p["id"]: p for p in state.get("paragraphs", [])}
    shown = [bid for bid in section if bid not in paras or paras[bid].get("text", "").strip()]
    lines = [paras[bid] for bid in shown if bid in paras]
    custom = custom_headings(state)
    levels = {p["id"]: level for p in lines if (level := heading_level(p.get("style"), custom)) is not None}
    listed = [p for p in lines if (p.get("list") or {}).get("level") is not None]
    tops: list[str] = []
    if levels:
        top = min(levels.values())
        tops = [pid for pid, level in levels.items() if level == top]
    elif listed:
        top = min(p["list"]["level"] for p in listed)
        tops = [p["id"] for p in listed if p["list"]["level"] == top]
    if not listed:  # a plain-text outline: the lines typed with the section's first two kinds of enumerator ("A.", then "1."),
        # also under the headings it has (its title made a heading, its "A." lines not yet)
        kinds = {p["id"]: _enumerator_kind(p.get("text", "")) for p in lines}
        firsts = list(dict.fromkeys(k for k in kinds.values() if k is not None))[:2]
        tops += [bid for bid, kind in kinds.items() if kind is not None and kind in firsts]
    return list(dict.fromkeys(shown[:SECTION_OPENING] + tops))[:MAX_SECTION_BLOCKS]


def _enumerator_kind(text: str) -> str | None:
    """The kind of enumerator a paragraph's text is typed with ("A.\tMONTHLY REPORTS": "A", "2.   REMEDIAL": "1",
    "b) Reduced": "a"), or None."""
    m = _ENUMERATOR.match(text)
    return None if m is None else "1" if m.group(1).isdigit() else "A" if m.group(1).isupper() else "a"


def series_end(state: State, pid: str) -> str | None:
    """For a short label ending in a number ("CHAPTER 7", "Part 3"), the last paragraph of its part: the one before
    the next label of the same words with another number ("CHAPTER 8", or "CHAPTER 1" of a document that repeats its
    chapters), else the document's last; None for another paragraph."""
    paras = state.get("paragraphs", [])
    start = next((i for i, p in enumerate(paras) if p["id"] == pid), None)
    if start is None or (m := _SERIES_LABEL.match(loose(paras[start].get("text", "")))) is None:
        return None
    for i in range(start + 1, len(paras)):
        other = _SERIES_LABEL.match(loose(paras[i].get("text", "")))
        if other is not None and other.group(1) == m.group(1) and other.group(2) != m.group(2):
            return paras[i - 1]["id"]
    return paras[-1]["id"] if len(paras) > start + 1 else None


#: a request placing its target right after or before what the instruction before it meant ("the check-in paragraph
#: just after it too", "the line above that one"): the noun, then where, then the pronoun (not a determiner: "the
#: paragraph after that heading" names its own place)
_NEXT_TO_IT = re.compile(r"\b(?:paragraph|line|one|block|sentence|item|entry|bit|part|row)s?\s+(?:(?:just|right|directly|"
                         r"immediately)\s+)?(?:(?P<after>after|below|under|following)|before|above|preceding)\s+"
                         r"(?:it\b|(?:that|this)(?:\s+one)?\b(?!\s+(?!(?:too|also|as|please|again|and|or|then)\b)"
                         r"[^\W\d_]))", re.IGNORECASE)


def next_to_it(state: State, said: str, ids: Iterable[str]) -> list[str]:
    """The body block with text right after (or before) the first block with text of `ids` (what the instruction
    before pointed at), when `said` places its target so (:data:`_NEXT_TO_IT`: "and the check-in paragraph just after
    it too", of a request in another language than the document, dwh-491#7)."""
    found = _NEXT_TO_IT.search(undictated(said))
    if found is None:
        return []
    blocks, at = _blocks_with_text(state, ids)
    n = None if at is None else at + 1 if found.group("after") else at - 1
    return [blocks[n][0]["id"]] if n is not None and 0 <= n < len(blocks) else []


def _blocks_with_text(state: State, ids: Iterable[str]) -> tuple[list[tuple[dict, bool]], int | None]:
    """The body blocks with text (tables included) as (element, is a table), and the place among them of the first
    block of `ids` (None when none is one)."""
    blocks = [(el, table) for el, table in body_blocks(state) if table or el.get("text", "").strip()]
    at = {el["id"]: n for n, (el, _) in enumerate(blocks)}
    return blocks, next((at[i] for i in ids if i in at), None)


def earlier(state: State, previous: str, matches: Iterable[Match] = ()) -> list[str]:
    """The body blocks the session's `previous` instructions (one a line, the nearest first:
    :func:`~autodw.agent.grounding.referred`) pointed at (:func:`pointed`; when none, those holding the numbers they
    said: :func:`numbers_held`, "那张统计表（2004到2008年的那个）", then "这张表的表头加粗", dwh-314#3; else those
    holding the names they said, as their own view showed them: :func:`~autodw.agent.distinctive.names_held`, "the
    analyst from Aton" of "…— полемизирует с ним аналитик ИК «Атон»", then "add a comment on it", dwh-462#6), those the nearest
    pointed at by itself first (its section is not behind those of the ones before it, dwh-306#4), then those holding
    the rarest words of the text they wrote (dictated text, now in the document: "add a line: fixed costs are
    $4,200...", then "fix that line"); the lines the nearest set in a font it names (:func:`in_font_said`) and the
    tables shaded in a colour it names (:func:`tables_shaded_said`) before those."""
    nearest, _, before = previous.partition("\n")
    first = [] if nearest == previous else _pointed_before(state, nearest, [m for m in matches
                                                                             if loose(m.quote) in loose(nearest)])
    # the one beside what the instruction before the nearest meant, when the nearest placed its target so
    # ("and the check-in paragraph just after it too", then "take it off the check-in one again", dwh-491#8)
    first = [*next_to_it(state, nearest, _pointed_before(state, before, [])), *first] if before else first
    wrote = [bid for bid, score, _ in ranked_blocks(state, previous)[:MAX_WORD_BLOCKS] if score >= MIN_WORD_SCORE]
    set_in = in_font_said(state, nearest)  # "字体都换成Consolas", then "这些行字号也调小一点"
    shaded = tables_shaded_said(state, nearest)  # "give it a light grey background", then "the names in its first column"
    return list(dict.fromkeys(first + _pointed_before(state, previous, matches) + set_in + shaded + wrote))


def tables_shaded_said(state: State, said: str) -> list[str]:
    """The body tables with a cell shaded in a colour `said` asks to set as a background or shading ("give it a light
    grey background"; not one said without that role: "make the text light grey"), when at most :data:`MAX_MATCHES`
    are: the table an earlier instruction shaded, which a request referring back to it means ("its first column"
    after "a small legend table ... make its top row bold and give it a light grey background" of a contract whose
    tables are headed in Russian, dwh-486#2)."""
    ranges = [colour_ranges()[c.name] for c, role in colours_to_set(said) if role == "background"]
    if not ranges:
        return []
    out = [t["id"] for t in state.get("tables", []) if "nested_in" not in t
           and any(r.contains((cell or {}).get("shading")) for row in t.get("cell_details") or [] for cell in row
                   for r in ranges)]
    return out if len(out) <= MAX_MATCHES else []


#: a request asking for what an abbreviation stands for ("with the full form", "spelled out")
_FULL_FORM_SAID = re.compile(r"\bfull\s+(?:forms?|names?|titles?|wording)\b|\bspel(?:led|t)\s+out\b|\bexpansions?\b"
                             r"|\bstands?\s+for\b|全称", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_]+")
MAX_SKIPPED_LETTERS = 2  # letters of a word inside an abbreviation's full form that gives it no letter ("и", "of")
MIN_ABBREVIATION_LETTERS = 3  # letters of an abbreviation read for its full form: two ("US") spell almost any text


def abbreviations_spelled(state: State, said: str) -> list[str]:
    """The first :data:`MAX_MATCHES` body paragraphs holding the full form of an abbreviation `said` (undictated text)
    says (a word of capitals, :data:`MIN_ABBREVIATION_LETTERS` or more), word after word the words its letters begin
    (:func:`spells`), when it asks for the full form: "add a row for НМЦК ... with the full form" shows "Начальная
    (максимальная) цена контракта" (dwh-486#4)."""
    if not _FULL_FORM_SAID.search(said):
        return []
    out: list[str] = []
    for abbreviation in dict.fromkeys(w for w in _WORD.findall(said) if w.isupper()):
        out += [p["id"] for p in state.get("paragraphs", []) if spells(abbreviation, p.get("text", ""))][:MAX_MATCHES]
    return list(dict.fromkeys(out))


def spells(abbreviation: str, text: str) -> bool:
    """Whether `text` holds words one after the other whose first letters are the letters of `abbreviation`, in any
    case, short words between them aside (:data:`MAX_SKIPPED_LETTERS`: "Система оповещения и управления эвакуацией"
    spells "СОУЭ"); not an abbreviation of fewer than :data:`MIN_ABBREVIATION_LETTERS` letters."""
    letters, words = abbreviation.casefold(), [w.casefold() for w in _WORD.findall(text)]
    if len(letters) < MIN_ABBREVIATION_LETTERS:
        return False
    for start in range(len(words)):
        k, j = 0, start
        while k < len(letters) and j < len(words):
            if words[j][0] == letters[k]:
                k += 1
            elif k == 0 or len(words[j]) > MAX_SKIPPED_LETTERS:
                break
            j += 1
        if k == len(letters):
            return True
    return False


def in_font_said(state: State, said: str) -> list[str]:
    """The first :data:`MAX_ALIKE` body paragraphs whose text (styles resolved) is all in a font `said` names (the
    value it sets, read where it is dictated too: "换成Consolas"), when not every body paragraph with text is: the lines an earlier instruction set in that font
    ("字体都换成Consolas") are what a request referring back to it means ("这些行字号也调小一点", dwh-484#5)."""
    looks = Formatting(state.get("styles", {}))
    body = set(body_ids(state))
    fonts: dict[str, set[Any]] = {}
    for p in state.get("paragraphs", []):
        if p["id"] in body and p.get("text", "").strip():
            fonts[p["id"]] = {looks.run(r, p.get("style")).get("font") for r in p.get("runs", []) if r.get("text", "").strip()}
    named = {f for used in fonts.values() for f in used if isinstance(f, str) and f.strip()
             and re.search(rf"(?<!{ALNUM}){re.escape(f)}(?!{ALNUM})", said, re.IGNORECASE)}
    held = [pid for pid, used in fonts.items() if len(used) == 1 and used <= named]
    return held[:MAX_ALIKE] if len(held) < len(fonts) else []


def _pointed_before(state: State, previous: str, matches: Iterable[Match]) -> list[str]:
    """What an earlier instruction `previous` pointed at (:func:`earlier`): the blocks its words point at, else those
    holding its numbers, else those holding the names it says."""
    return (pointed(state, previous, matches) or numbers_held(state, previous) or numbers_worded(state, previous)
            or names_held(state, undictated(previous)))


def counterparts(state: State, said: str, ids: Iterable[str]) -> list[str]:
    """When `said` (undictated text) asks for the same on the others ("do the same for everyone else's gain figure"):
    the blocks playing the part the first body block with text of `ids` (what the previous instruction pointed at)
    plays under its heading, under each other heading of that heading's style, in document order, up to
    :data:`MAX_ALIKE` (the n-th block of its kind under each: the first paragraph of each case, dwh-403#7); the other
    headings of its style when it is a heading itself."""
    if not any(not (_OTHERS_KEPT.search(said[:m.start()]) or _OTHERS_KEPT.search(said[m.end():]))
               for m in _OTHERS.finditer(said)):
        return []
    blocks, target = _blocks_with_text(state, ids)
    custom = custom_headings(state)
    heads = [n for n, (el, table) in enumerate(blocks) if not table and heading_level(el.get("style"), custom) is not None]
    if target is None:
        return []

    def kind(n: int) -> tuple:
        return ("table",) if blocks[n][1] else _list_kind(blocks[n][0])

    head = target if target in heads else max((n for n in heads if n < target), default=None)
    if head is None:
        return []
    style, level = blocks[head][0].get("style"), heading_level(blocks[head][0].get("style"), custom)

    def part(h: int) -> list[int]:
        """The blocks of the target's kind under the heading at `h`, up to the next of its level or higher."""
        end = next((n for n in heads if n > h and (heading_level(blocks[n][0].get("style"), custom) or 0) <= level),
                   len(blocks))
        return [n for n in range(h + 1, end) if kind(n) == kind(target)]

    place = None if target == head else part(head).index(target)
    out = []
    for h in heads:
        if h == head or blocks[h][0].get("style") != style:
            continue
        if place is None:
            out.append(h)
        elif place < len(found := part(h)):
            out.append(found[place])
    return [blocks[n][0]["id"] for n in out][:MAX_ALIKE]


def coloured(state: State, said: str) -> list[str]:
    """The first :data:`MAX_COLOURED` body paragraphs whose text (styles resolved) is all of a colour `said` (undictated
    text) describes its target by, not one it asks for, with the rest of the last one's section (:func:`_looking`):
    "make the two blue section titles dark red" names the blue paragraphs."""
    described = {c.name for c in colours_said(said)} - {c.name for c, _ in colours_to_set(said)}
    if not described:
        return []
    ranges = [colour_ranges()[name] for name in described]

    def of_colour(looks: list[dict[str, Any]]) -> bool:
        colours = {look.get("color") for look in looks}
        return len(colours) == 1 and any(r.contains(next(iter(colours))) for r in ranges)
    return _looking(state, of_colour, section_rest=True)


#: a style a request describes its targets by ("the ones in Heading 1 style", "the Heading 2 paragraphs", "styled
#: Quote"), not one it asks for ("make them Heading 4", "proper Heading 2 headings"): {name} is the style's name
_STYLE_DESCRIBED = (r"(?<!\w)(?:in|with|using|of|styled(?:\s+as)?)\s+(?:the\s+)?{name}(?:\s+style)?(?!\w)"
                    r"|(?<!\w){name}(?:\s+style)?(?:-styled|\s+(?:paragraphs?|ones|lines|text))(?!\w)")


def styled(state: State, said: str) -> list[str]:
    """The first :data:`MAX_ALIKE` body paragraphs with text of each paragraph style `said` (undictated text) describes
    its targets by (:data:`_STYLE_DESCRIBED`): "the chapter headings (the ones in Heading 1 style)" of a handbook of
    4,000 paragraphs (dwh-510#3)."""
    names = [st["name"] for st in (state.get("styles") or {}).get("styles", []) if st.get("category") == "paragraph"
             and len(st.get("name") or "") >= MIN_NAME_CHARS]
    text = " ".join(said.split())
    # a name of several words in any case, one word as written ("in Normal style", not "normal text")
    described = [name for name in names if re.search(_STYLE_DESCRIBED.format(name=r"\s+".join(
        map(re.escape, name.split()))), text, re.IGNORECASE if " " in name.strip() else 0)]
    out: list[str] = []
    for name in described:
        out += [p["id"] for p in state.get("paragraphs", [])
                if p.get("style") == name and p.get("text", "").strip()][:MAX_ALIKE]
    return out


def highlighted(state: State, said: str) -> list[str]:
    """The first :data:`MAX_COLOURED` body paragraphs whose text (styles resolved) is all highlighted, when `said`
    (undictated text) describes its target as highlighted ("make the highlighted items bold too")."""
    if not _HIGHLIGHTED.search(said):
        return []
    return _looking(state, lambda looks: all(look.get("highlight") not in (None, "none") for look in looks))


def bolded(state: State, said: str) -> list[str]:
    """The first :data:`MAX_COLOURED` body paragraphs whose text (styles resolved) is all bold, when `said` (undictated
    text) describes its target as bold ("make the bold section labels real headings": labels typed in bold; labels
    named before the description, the short ones, up to :data:`MAX_ALIKE`)."""
    found = _BOLD.search(said)
    if found is None:
        return []
    # labels (described so, or the subject so described: "那几个小标题…现在只是加粗的普通段落", dwh-400#4): the short
    # ones, each of them
    if _LABEL_NOUN.search(found.group("noun") or found.group("zh") or "") or _LABEL_NOUN.search(said, 0, found.start()):
        short = {p["id"] for p in state.get("paragraphs", []) if len(p.get("text", "").strip()) <= MAX_TITLE_CHARS}
        return _looking(state, lambda looks: all(look.get("bold") for look in looks), short, MAX_ALIKE)
    return _looking(state, lambda looks: all(look.get("bold") for look in looks))


def boxed(state: State, said: str) -> list[str]:
    """The first :data:`MAX_COLOURED` body paragraphs with a border (styles resolved), when `said` (undictated text)
    speaks of a box or border there is (:data:`_BOX_SAID`: "make the box dark blue and the line a bit thicker" after a
    border was put round a sentence, dwh-366#3; not "put a box around the quote")."""
    if not _BOX_SAID.search(said):
        return []
    looks = Formatting(state.get("styles", {}))
    body = set(body_ids(state))
    bordered = (p["id"] for p in state.get("paragraphs", []) if p["id"] in body and looks.paragraph(p).get("border"))
    return list(itertools.islice(bordered, MAX_COLOURED))


def italicised(state: State, said: str, among: Collection[str] = ()) -> list[str]:
    """The first :data:`MAX_COLOURED` body paragraphs (of `among`, the sections the request names, when some are)
    whose text (styles resolved) is all italic, when `said` (undictated text) describes its target as in italics
    (:data:`_ITALIC`): of more than :data:`MAX_TITLE_CHARS` characters for a sentence or paragraph ("the one sentence
    in italics in section II" among italic subheadings, dwh-366#2), of at most that for a title or label."""
    found = next((m for m in _ITALIC.finditer(said) if not _ITALIC_ASKED.search(said, 0, m.end())), None)
    if found is None:
        return []
    noun = found.group("noun") or found.group("after") or ""
    sentence, label = _SENTENCE_NOUN.fullmatch(noun), _LABEL_NOUN.fullmatch(noun)
    kept = {p["id"] for p in state.get("paragraphs", []) if (not among or p["id"] in among)
            and (not sentence or len(p.get("text", "").strip()) > MAX_TITLE_CHARS)
            and (not label or len(p.get("text", "").strip()) <= MAX_TITLE_CHARS)}
    return _looking(state, lambda looks: all(look.get("italic") for look in looks), kept)


def marks_held(state: State, said: str) -> list[str]:
    """The body blocks holding a symbol that `said` (undictated text) types inside a word, as the document spells it
    ("Jung´s, Kant´s, Freud´s" typed with an acute accent for an apostrophe, dwh-335#7: every block holding it),
    when at most :data:`MAX_ALIKE` blocks hold it (a modifier symbol, Unicode's category Sk: "´", "`", "¨", "ˆ"; not
    an arrow or a math symbol: "第一章～第三章", "Word→PDF")."""
    marks = {ch for before, ch, after in zip(said, said[1:], said[2:]) if before.isalpha() and after.isalpha()
             and unicodedata.category(ch) == "Sk"}
    texts = block_texts(state) if marks else []
    out = []
    for mark in sorted(marks):
        held = [bid for bid, text in texts if mark in text]
        out += held if len(held) <= MAX_ALIKE else []
    return list(dict.fromkeys(out))


#: a target a request describes by the mark it begins with ("the bold line ... begins with a stray dash", "the line
#: starting with an asterisk"): the mark's name
_STARTS_WITH = re.compile(r"\b(?:begins?|beginning|starts?|starting|opens?|opening)\s+with\s+(?:an?\s+|the\s+)?"
                          r"(?:[^\W\d_]+\s+)?(dash|hyphen|bullet|asterisk|full\s+stop|period|comma|semicolon|colon)\b",
                          re.IGNORECASE)
_MARKS_NAMED = {"dash": "-‐‑–—−", "hyphen": "-‐‑", "bullet": "•·●▪◦*", "asterisk": "*", "full stop": ".",
                "period": ".", "dot": ".", "comma": ",،", "semicolon": ";؛", "colon": ":"}
#: a target a request describes as a mark alone on its line ("a lonely full stop on its own line", "a dash by itself
#: on a line"): the mark's name, said with a word for alone
_MARK_NAME = re.compile(r"\b(dash|hyphen|bullet|asterisk|full\s+stop|period|dot|comma|semicolon|colon)s?\b", re.IGNORECASE)
_ALONE = re.compile(r"\b(?:lone(?:ly)?|alone|solitary|by\s+itself|on\s+(?:its|their)\s+own|of\s+its\s+own)\b",
                    re.IGNORECASE)
#: a target a request describes as a line made of a mark ("the two lines of asterisks between the groups of names",
#: "a row of dashes"): the mark's name
_MARKS_LINE = re.compile(r"\b(?:lines?|rows?|strings?)\s+(?:made\s+(?:up\s+)?)?of\s+(?:[^\W\d_]+\s+)?"
                         r"(dash|hyphen|bullet|asterisk|full\s+stop|period|dot|comma|semicolon|colon)(?:s|es)\b",
                         re.IGNORECASE)


def started_with(state: State, said: str) -> list[str]:
    """The body paragraphs whose text begins with a mark `said` (undictated text) describes its target by
    (:data:`_STARTS_WITH`: "begins with a stray dash"), when at most :data:`MAX_ALIKE` do."""
    marks = "".join(_MARKS_NAMED[" ".join(m.casefold().split())] for m in _STARTS_WITH.findall(said))
    if not marks:
        return []
    body = set(body_ids(state))
    out = [p["id"] for p in state.get("paragraphs", []) if p["id"] in body
           and (text := p.get("text", "").lstrip()) and text[0] in marks]
    return out if len(out) <= MAX_ALIKE else []


def marks_alone(state: State, said: str) -> list[str]:
    """The body paragraphs whose whole text is a mark `said` (undictated text) names when it says the mark is alone
    (:data:`_ALONE`: "a lonely full stop on its own line", dwh-465#3) or a line is made of it (:data:`_MARKS_LINE`:
    "the two lines of asterisks between the groups of names", dwh-474#8), when at most :data:`MAX_ALIKE` are: a line
    the view may leave out among the empty and short ones of a long section."""
    names = [*(_MARK_NAME.findall(said) if _ALONE.search(said) else ()), *_MARKS_LINE.findall(said)]
    marks = "".join(_MARKS_NAMED[" ".join(name.casefold().split())] for name in names)
    if not marks:
        return []
    body = set(body_ids(state))
    out = [p["id"] for p in state.get("paragraphs", []) if p["id"] in body
           and (text := "".join(p.get("text", "").split())) and all(ch in marks for ch in text)]
    return out if len(out) <= MAX_ALIKE else []


def look_alikes_held(state: State, said: str) -> list[str]:
    """The body blocks holding a word that `said` (undictated text) says in the Latin alphabet (of letters and a digit:
    a code), typed there with Cyrillic or Greek letters that look like its Latin ones beside Latin letters or
    digits (no word of those alphabets: "Саа1" with a Cyrillic С and а for the rating "Caa1"), when at most
    :data:`MAX_ALIKE` blocks hold it: a search for the word does not find them, so the request names them."""
    words = {part.casefold() for part in re.findall(rf"{ALNUM}+", said)
             if part.isascii() and re.search(r"\d", part) and re.search(r"[A-Za-z]", part)}
    if not words:
        return []
    out = []
    for bid, text in block_texts(state):
        for part in re.findall(rf"{ALNUM}+", text) if LOOK_ALIKE_LETTERS.search(text) else ():
            if not part.isascii() and LOOK_ALIKE_LETTERS.search(part) and re.search(r"[A-Za-z\d]", part) \
                    and unconfused(part).casefold() in words:
                out.append(bid)
                break
    return out if len(out) <= MAX_ALIKE else []


def mail_blocks(state: State, said: str) -> list[str]:
    """The body blocks holding an e-mail address (a table by a cell), when `said` speaks of one and at most
    :data:`MAX_MAIL_BLOCKS` do: "that Yahoo mailbox line" of a Persian book, its address "w_hosainy@yahoo.com" (dwh-339#6)."""
    if not _MAIL_SAID.search(said):
        return []
    held = {bid for bid, text in block_texts(state) if "@" in text and _MAIL.search(text)}  # (quadratic on long words)
    out = [bid for bid in body_ids(state) if bid in held]
    return out if len(out) <= MAX_MAIL_BLOCKS else []


def clock_blocks(state: State, said: str) -> list[str]:
    """The body blocks holding a clock time (a table by a cell), when `said` speaks of a time of day
    (:data:`_TIME_SAID`) and at most :data:`MAX_TIME_BLOCKS` do: "the paragraph with the meeting time at the airport"
    of a Hebrew letter, its line holding "09:30" (dwh-439#8)."""
    if not _TIME_SAID.search(said):
        return []
    held = {bid for bid, text in block_texts(state) if ":" in text and re.search(_SHAPES[1], text)}
    out = [bid for bid in body_ids(state) if bid in held]
    return out if len(out) <= MAX_TIME_BLOCKS else []


def _looking(state: State, keep: Callable[[list[dict[str, Any]]], bool], among: Collection[str] | None = None,
             most: int = MAX_COLOURED, section_rest: bool = False) -> list[str]:
    """The first `most` body paragraphs (of `among`, if given) with text the effective formats of whose runs with text
    `keep` accepts; with `section_rest`, then the others before the next heading, up to :data:`MAX_ALIKE` (the cap
    does not split a section's run of them: the eight green comment lines of one code example, dwh-431#6)."""
    looks = Formatting(state.get("styles", {}))
    custom = custom_headings(state) if section_rest else {}
    out: list[str] = []
    for p in state.get("paragraphs", []):
        if len(out) >= most and (not section_rest or len(out) >= MAX_ALIKE or (
                p.get("text", "").strip() and heading_level(p.get("style"), custom) is not None)):
            break
        if among is not None and p["id"] not in among:
            continue
        runs = [looks.run(r, p.get("style")) for r in p.get("runs", []) if r.get("text", "").strip()]
        if runs and keep(runs):
            out.append(p["id"])
    return out


#: where a row or column goes ("add a row for it at the bottom"): the end of its table, not of the document
_ROW_PLACED = re.compile(r"\b(?:rows?|columns?)\b(?:(?!\b(?:and|then)\b)[^.;!?,，])"
                         r"{0,30}?\b(?:at|to)\s+the\s+(?:very\s+)?(?:end|bottom)\b"
                         r"(?!\s+of\s+(?:the|my|this|our|your)\s+(?:document|doc|file|text|page)\b)", re.IGNORECASE)


def at_end(text: str) -> bool:
    """Whether `text` (its words, not the text it dictates) points at the end ("near the end", "the last paragraph";
    not the end of a table a row or column goes to: "add a row for it at the bottom", dwh-486#4)."""
    return _END.search(_ROW_PLACED.sub(" ", undictated(text))) is not None


def end_blocks(state: State) -> list[str]:
    """The body's last :data:`END_BLOCKS` blocks that show something (tables, paragraphs with text or a picture), last
    first, then the empty paragraphs after them (up to as many): a document often ends in empty paragraphs, and "the
    last paragraph" is the last one with text."""
    blocks = [(el["id"], table or shows_something(el))
              for el, table in body_blocks(state)[::-1]]
    shown = [bid for bid, shows in blocks if shows]
    trailing = list(itertools.takewhile(lambda b: not b[1], blocks))
    return shown[:END_BLOCKS] + [bid for bid, _ in trailing[:END_BLOCKS]]


def start_blocks(state: State) -> list[str]:
    """The body's first :data:`START_BLOCKS` blocks that show something (tables, paragraphs with text or a picture)."""
    return [el["id"] for el, table in body_blocks(state)
            if table or shows_something(el)][:START_BLOCKS]


def repeated_start(state: State, said: str) -> list[str]:
    """Where the document's opening recurs (its first :data:`OPENING_LINES` body paragraphs with text again, in order,
    empty ones between them aside), the first :data:`MAX_MATCHES` times, when `said` (undictated text) speaks of a
    repetition: "the start of the second copy (where the cover repeats)" of a handbook pasted several times over."""
    if not _REPEATED.search(said):
        return []
    lines = [(el["id"], _whole_key(el)) for el, table in body_blocks(state) if not table and _whole_key(el)]
    opening = [key for _, key in lines[:OPENING_LINES]]
    if len(opening) < OPENING_LINES:
        return []
    keys = [key for _, key in lines]
    return [lines[n][0] for n in range(1, len(lines) - OPENING_LINES + 1)
            if keys[n:n + OPENING_LINES] == opening][:MAX_MATCHES]


def shown_last(state: State, section: list[str]) -> list[str]:
    """The last :data:`END_BLOCKS` blocks of `section` that show something (tables, paragraphs with text or a
    picture), last first."""
    paras = {p["id"]: p for p in state.get("paragraphs", [])}
    shows = [bid for bid in section if bid not in paras or shows_something(paras[bid])]
    return shows[::-1][:END_BLOCKS]


def header_named(state: State, text: str) -> list[str]:
    """The body tables a header cell of which (its first row's; a number or a one-letter cell names none) `text` says
    whole, when it speaks of a table or a column ("the table whose columns include 项目概况", "the table with the
    Coffs-Res. column"); none when more than :data:`MAX_MATCHES` tables have such a cell."""
    if not _TABLE_OR_COLUMN.search(text):
        return []
    said = loose(text)
    out = []
    for t in [t for t in state.get("tables", []) if "nested_in" not in t]:
        for cell in (t.get("cells") or [[]])[0]:
            key = loose(str(cell)).strip(_TRIM)
            if len(key) < 2 or re.fullmatch(r"[\d\W_]+", key):
                continue
            if _says(said, key):
                out.append(t["id"])
                break
    return out if len(out) <= MAX_MATCHES else []


def tables_within(state: State, said: str, sections: Iterable[list[str]]) -> list[str]:
    """The body tables in `sections` (lists of block ids) too long to point at whole (:func:`fits`; up to
    :data:`MAX_LISTED_TABLES`) when `said` (undictated text) speaks of a table: their outline shows none ("In chapter
    2, the staffing table (posts and headcount)" of a tender whose chapter 2 is 90 blocks long, dwh-404#3); of a
    section holding none, the first table in the :data:`MAX_BLOCKS_TO_TABLE` blocks after it (the table of an
    attachment labelled on its own under the part named: "the test card (appendix 7). The table for the test
    results" is under "Приложение № 1 к карте тестирования", dwh-486#6)."""
    if not _TABLE_SAID.search(said):
        return []
    tables = {t["id"] for t in state.get("tables", []) if "nested_in" not in t}
    order = body_ids(state)
    at = {bid: n for n, bid in enumerate(order)}
    out = []
    for section in sections:
        if not any(bid in tables for bid in section):
            after = order[at[section[-1]] + 1:at[section[-1]] + 1 + MAX_BLOCKS_TO_TABLE] if section and section[-1] in at else []
            out += [bid for bid in after if bid in tables][:1]
        elif not fits(state, section):
            out += [bid for bid in section if bid in tables]
    return list(dict.fromkeys(out))[:MAX_LISTED_TABLES]


def tables_listed(state: State, text: str, named: Iterable[str]) -> list[str]:
    """Every body table (of up to :data:`MAX_LISTED_TABLES`) when `text` (what it does not dictate) speaks of a table
    and none of the ids it points at or names (`named`) is one: "the abbreviations table" of a contract whose tables
    are headed in Russian is found by its first row ("Сокращение | Определение")."""
    tables = [t["id"] for t in state.get("tables", []) if "nested_in" not in t]
    if not _TABLE_SAID.search(undictated(text)) or set(named) & set(tables) or len(tables) > MAX_LISTED_TABLES:
        return []
    return tables


def tables_alike(state: State, ids: Iterable[str]) -> list[str]:
    """The body tables shaped like one of `ids` or like one holding a cell paragraph of `ids` (:func:`_table_shape`),
    up to :data:`MAX_ALIKE`: the verses typed three cells to a row, the middle one empty, in three tables (dwh-339#3)."""
    tables = [t for t in state.get("tables", []) if "nested_in" not in t]
    ids = set(ids)
    shapes = {_table_shape(t) for t in tables
              if t["id"] in ids or any(ids & cell_ids(row) for row in t.get("cell_details") or [])}
    return [t["id"] for t in tables if _table_shape(t) in shapes][:MAX_ALIKE]


def _table_shape(t: dict[str, Any]) -> tuple[Any, ...]:
    """A table's shape: its columns, its first row's cell widths and which columns are empty in every row."""
    rows = t.get("cell_details") or []
    widths = tuple((c or {}).get("width") for c in rows[0]) if rows else ()
    empty = tuple(all(not ((row[c] or {}).get("text") or "").strip() for row in rows if c < len(row))
                  for c in range(t.get("cols") or 0))
    return t.get("cols"), widths, empty


def headings_listed(state: State, text: str, named: Iterable[str]) -> list[str]:
    """The headings of the highest level with text (of up to :data:`MAX_LISTED_HEADINGS`) when `text` (what it does not
    dictate) speaks of a chapter, section, heading or title and none of the ids it points at or names (`named`) is a
    heading: "the chapter on key seven" of a Persian book is found by its title ("کلید هفتم"), however far the blocks
    the request before pointed at are (dwh-275#7)."""
    if not _HEADING_SAID.search(undictated(text)):
        return []
    custom = custom_headings(state)
    levels = {p["id"]: level for p in state.get("paragraphs", [])
              if p.get("text", "").strip() and (level := heading_level(p.get("style"), custom)) is not None}
    if not levels or set(named) & set(levels):
        return []
    highest = min(levels.values())
    top = [pid for pid, level in levels.items() if level == highest]
    return top if len(top) <= MAX_LISTED_HEADINGS else []


def chapters_typed(state: State, text: str) -> list[str]:
    """The body paragraphs that are not headings typed as chapter titles ("第二章  采购项目需求", "CHAPTER 6 - BUDGETS":
    :data:`_CHAPTER_LINE`, up to :data:`MAX_TITLE_CHARS` characters), when `text` (what it does not dictate) speaks of
    chapters and two to :data:`MAX_LISTED_HEADINGS` of them are in the document: "none of the chapter titles are real
    headings" of a tender converted by LibreOffice (dwh-286#2)."""
    if not _CHAPTER_SAID.search(undictated(text)):
        return []
    custom = custom_headings(state)
    out = [p["id"] for p in state.get("paragraphs", []) if len(p.get("text", "").strip()) <= MAX_TITLE_CHARS
           and _CHAPTER_LINE.match(p.get("text", "")) and heading_level(p.get("style"), custom) is None]
    return out if 2 <= len(out) <= MAX_LISTED_HEADINGS else []


def chapters_under(state: State, said: str) -> list[str]:
    """The chapter titles typed (:func:`chapters_typed`), each with the first body paragraph with text under it, when
    `said` (undictated text) speaks of chapters and of what is under them: "the four chapter headings, and the line in
    brackets under each one" of statutes whose "CAPÍTULO SEGUNDO" has "(Dos membros)" under it (dwh-414#6; and
    "put those back" after it, dwh-414#7)."""
    if not _UNDER.search(said):
        return []
    heads, out, under = set(chapters_typed(state, said)), [], False
    for el, table in body_blocks(state):
        if el["id"] in heads or under and (table or el.get("text", "").strip()):
            out.append(el["id"])
            under = el["id"] in heads
    return out


#: a request speaking of several headings or titles ("the numbered section headings", "the clause titles")
#: (not a table's: "its column headings" are its header cells, dwh-486#8)
_HEADINGS_SAID = re.compile(r"\b(?<!column\s)(?<!table\s)(?<!row\s)(?:headings|titles)\b", re.IGNORECASE)
MIN_TYPED_HEADINGS = 3  # numbered titles in a row that make a document's typed outline


def headings_typed(state: State, said: str) -> list[str]:
    """The document's typed numbered titles (:func:`titles_typed`) when `said` (undictated text) speaks of headings or
    titles: "the numbered section headings of the contract" of a Russian contract whose headings are bold Normal
    lines (dwh-378#3, and "make them 14" after it)."""
    return titles_typed(state) if _HEADINGS_SAID.search(said) else []


#: the words joining the two ends of a span of paragraphs a request names ("18.33.010 Purpose down to 18.33.090 ...")
_SPAN_JOIN = re.compile(r"\s*(?:(?:all\s+the\s+way\s+)?(?:down\s+|up\s+|on\s+)?(?:to|through|thru|till|until)"
                        r"|[-–—~～]|到|至|до|по)\s*", re.IGNORECASE)


def spanned(state: State, said: str, matches: Iterable[Match]) -> list[str]:
    """The body paragraphs from one paragraph `said` (undictated text) names to the next it names, when it joins them
    as a span's ends (:data:`_SPAN_JOIN`) and they look alike (:func:`~autodw.agent.grounding.look`), that look like
    them, up to :data:`MAX_ALIKE`: "the numbered section titles (18.33.010 Purpose down to 18.33.090 Incentives)"
    names the seven bold Normal titles between the two (dwh-407#5)."""
    paras = state.get("paragraphs", [])
    at = {p["id"]: n for n, p in enumerate(paras)}
    text = loose(said)
    placed = sorted({(start, start + len(key), m.id) for m in matches
                     if m.id in at and (key := loose(m.text).strip(" .:")) and (start := text.find(key)) >= 0})
    out: list[str] = []
    for (_, end, a), (start, _, b) in zip(placed, placed[1:]):
        first, last = paras[at[a]], paras[at[b]]
        if at[a] < at[b] and look(first) == look(last) and _SPAN_JOIN.fullmatch(text[end:start]):
            out += [p["id"] for p in paras[at[a]:at[b] + 1] if p.get("text", "").strip() and look(p) == look(first)]
    return list(dict.fromkeys(out))[:MAX_ALIKE]


def titles_typed(state: State) -> list[str]:
    """The paragraphs not styled as headings that are typed as numbered titles ("1.\tПРЕДМЕТ КОНТРАКТА", "B.\tBUDGET":
    an enumerator, up to :data:`MAX_TITLE_WORDS` words, no closing punctuation) numbered 1, 2, 3... in document order,
    the longest such run of :data:`MIN_TYPED_HEADINGS` to :data:`MAX_LISTED_HEADINGS` ([] for none)."""
    custom = custom_headings(state)
    typed = []
    for p in state.get("paragraphs", []):
        text = p.get("text", "")
        m = _ENUMERATOR.match(text)
        if (m is None or heading_level(p.get("style"), custom) is not None
                or len(text.split()) > MAX_TITLE_WORDS + 1 or re.search(r"[.:;,!?。]\s*$", text)):
            continue
        label = m.group(1)
        number = int(label) if label.isdigit() else ord(label.upper()) - ord("A") + 1
        typed.append((p["id"], _enumerator_kind(text), number))
    best: list[str] = []
    for n, (pid, kind, number) in enumerate(typed):
        if number != 1:
            continue
        run, last = [pid], 1
        for other, other_kind, other_number in typed[n + 1:]:
            if other_kind == kind and other_number == last + 1:
                run, last = [*run, other], other_number
        best = run if len(run) > len(best) else best
    return best if MIN_TYPED_HEADINGS <= len(best) <= MAX_LISTED_HEADINGS else []


def lines_beside(state: State, text: str, tables: Iterable[str]) -> list[str]:
    """The first body paragraph with text after each of `tables` (ids; others ignored), when `text` (what it does not
    dictate) speaks of a table and of what is under or after it ("each couplet table has its translation in the line
    right under it"), and the last one before each when it speaks of what is above or before it ("the little labels
    above each table", dwh-334#2); of every body table when it speaks of each or all of them."""
    said = undictated(text)
    under, above = bool(_UNDER.search(said)), bool(_ABOVE.search(said))
    if not (_TABLE_SAID.search(said) and (under or above)):
        return []
    wanted = set(tables) | ({t["id"] for t in state.get("tables", [])} if _EACH_TABLE.search(said) else set())
    out: list[str] = []
    after, last = False, None
    for el, table in body_blocks(state):
        if table:  # the line beside a table is beside no table past it
            after = el["id"] in wanted
            if above and after and last is not None:
                out.append(last)
            last = None
        elif el.get("text", "").strip():
            if after and under:
                out.append(el["id"])
            after, last = False, el["id"]
    return list(dict.fromkeys(out))[:MAX_LISTED_TABLES]


def labelled(state: State, text: str) -> list[tuple[str, str]]:
    """The sections (the label and the last paragraph before the next label like it) of the short unstyled label
    paragraphs that stand for headings ("Manufacturing", "For Investors") whose every word of
    :data:`MIN_LABEL_WORD` letters or more `text` says, in any case ("the manufacturing checklist", "that investors
    list"; a plural word said in the singular: "the reference list" for "REFERENCES"); a label more than
    :data:`MAX_MATCHES` paragraphs hold names none; a contents entry is none ("docx в PDF" for "the docx snippets",
    dwh-319#4)."""
    custom = custom_headings(state)
    return [(p["id"], end) for p in _titles_said(state, text, lambda p: heading_level(p.get("style"), custom) is None)
            if (end := _label_end(state, p["id"])) is not None]


def headings_said(state: State, text: str) -> list[str]:
    """The headings (styled) of up to :data:`MAX_LABEL_WORDS` words whose every word of :data:`MIN_LABEL_WORD`
    letters or more `text` says, as :func:`labelled` finds labels ("the Budget Dispute Resolution heading" of
    "B.\tBUDGET DISPUTE RESOLUTION", dwh-342#4), two such words or more (one, "Notes", is said in passing); a
    title more than :data:`MAX_MATCHES` headings hold names none."""
    custom = custom_headings(state)
    return [p["id"] for p in _titles_said(state, text, lambda p: heading_level(p.get("style"), custom) is not None)
            if sum(len(w) >= MIN_LABEL_WORD for w in re.findall(r"\w+", SECTION_NUMBER.sub("", loose(p["text"])))) >= 2]


def _titles_said(state: State, text: str, kind: Callable[[dict[str, Any]], bool]) -> list[dict[str, Any]]:
    """The short paragraphs of `kind` (not closed as a sentence: :func:`_closed`; no contents entry) whose every word of
    :data:`MIN_LABEL_WORD` letters or more `text` says, in any case (a plural in the singular too, a singular in the
    plural: "the Additional Clauses subheadings" of "Additional Clause", dwh-390#6), those of a title
    more than :data:`MAX_MATCHES` of them hold aside, unless `text` speaks of a copy of a document that repeats itself
    and the title has two such words or more: then its first ones, or its last ones, last first, when it says the last copy ("the 'In rare
    instances' paragraph under Reduced Compensation" in "that last copy": :func:`~autodw.agent.grounding.in_copy`)."""
    loose_text = loose(text)
    said = {*re.findall(r"\w+", loose_text), *re.findall(rf"{ALNUM}+", loose_text)}  # "第5节OPERATING RESERVE写完"
    held: dict[str, list[dict[str, Any]]] = {}
    for p in state.get("paragraphs", []):
        words = re.findall(r"\w+", SECTION_NUMBER.sub("", loose(p.get("text", ""))))
        if 0 < len(words) <= MAX_LABEL_WORDS and kind(p) \
                and not _closed(p.get("text", "")) and not CONTENTS_STYLE.match(p.get("style") or ""):
            held.setdefault(" ".join(words), []).append(p)
    out = []
    for label, paras in held.items():
        key = [w for w in label.split() if len(w) >= MIN_LABEL_WORD]
        paras = in_copy(text, paras) if len(key) >= 2 else paras  # "CHAPTER 7" of each copy is no "chapter 3"
        if key and len(paras) <= MAX_MATCHES and all(
                w in said or w[-1] == "s" and w[:-1] in said or w + "s" in said for w in key):
            out += paras
    return out


#: a paragraph's end that makes it a sentence, not a title: closing punctuation
_CLOSING_MARK = re.compile(r"[.:;,!?。]\s*$")
#: a title's closing full stop (not an ellipsis)
_FULL_STOP = re.compile(r"(?<!\.)\.\s*$")


def _closed(text: str) -> bool:
    """Whether paragraph text `text` ends as a sentence does, not a title: with closing punctuation, but for the full
    stop a title typed with a section number may end with, as the sections of a code do ("18.33.090 Incentives.")."""
    return _CLOSING_MARK.search(text) is not None and not (SECTION_NUMBER.match(text) and _FULL_STOP.search(text))


def _label_end(state: State, pid: str) -> str | None:
    """The last paragraph of the section of label paragraph `pid` (:func:`~autodw.agent.grounding.label_section`, up
    to the next number of its depth); None for a label with nothing under it."""
    under = label_section(state, pid)
    return None if under is None else under[1]


#: a section a request names by a description of its title ("the termination section", "the section on payment",
#: "the list of commercial extensions", "付款那部分"): the description
_SECTION_DESCRIBED = re.compile(
    r"\b(?:sections?|chapters?|parts?|headings?|appendix|annex|{pieces})(?:\s+{placed})?\s+(?:on|about|called|titled|"
    r"named|for|covering|regarding|dealing\s+with)\s+(?:the\s+)?(?P<after>{words})(?={end})"
    r"|\b(?:in|under|to|from|of)?\s*(?:the|this|that|our|my|your)\s+(?P<before>{before})\s{{1,2}}"
    r"(?:sections?|chapters?|parts?|headings?|appendix|annex|list)\b"
    r"|\b(?:list|overview|summary)\s+of\s+(?:the\s+)?(?P<listof>{words})(?={end})"
    r"|(?P<zh>[\u4e00-\u9fff]{{2,12}}?)(?:(?:这|那)?(?:一)?(?:部分|章节|小节|一节|一章)|(?:这|那)(?:一)?(?:个)?章"
    # a heading said bare before where the target is ("致谢下面那段", "挪到…基本操作前面")
    r"|(?P<place>(?:的)?(?:下面|下方|后面|之后|上面|上方|前面|之前)))".format(
        # a piece of writing a document collects, as a section ("the long piece further down about private
        # investment", an article of a press digest)
        pieces=r"pieces?|articles?|stor(?:y|ies)|essays?",
        # where it is said to be, between the noun and its subject ("further down", "below")
        placed=r"(?:(?:further|farther|lower|higher)\s+(?:down|up|on)|below|above|later\s+on)",
        # an article only inside the description ("the section on opening an existing document")
        words=r"(?!(?:the|a|an|this|that)\b)(?:[^\W\d_][\w'’-]*\s+){0,3}?[^\W\d_][\w'’-]*",
        # a title said before "section" holds no preposition, nor a dictated text (blanked: a run of spaces)
        before=r"(?:(?!(?:the|a|an|this|that|in|on|at|to|from|by|with|into|than)\b)[^\W\d_][\w'’-]*\s){0,3}?"
               r"(?!(?:in|on|at|to|from|by|with|into|than)\b)[^\W\d_][\w'’-]*",
        end=r"\s*[,.;:!?()\"“”—–-]|\s+(?:and|then|to|into|with|where|which|that|so|as|in|of|from|near|at|on|under|"
            r"should|must|needs?|"
            r"is|are|was|be|has|have|please|can|could|would|will)\b|\s*$"), re.IGNORECASE)
#: what a Chinese description has around the section's name: up to the last "把"-like word or "挪到", else a leading
#: "在"-like one ("把在线生成代码这一章": "在线生成代码", not "线生成代码"), and a trailing "和"
_LEAD_IN = re.compile(r"^.*(?:把|将|帮我|请|到)|^(?:在|给|对|和|跟)|(?:的|和|与|及)$")
_POINTER = re.compile(r"(?:这|那|此|该)")  # what a Chinese description that only points ("这一章") starts with
#: words that say which section or list, not what it is about ("the next section", "the bulleted list")
_NOT_A_TITLE = frozenset("first second third last next previous following same whole entire other new above below "
                         "this that bullet bulleted numbered final opening closing top bottom main short long empty "
                         "preceding little small big large very just only few several all each every one two three "
                         "four five six seven eight nine ten section sections chapter chapters part parts heading "
                         "headings list lists title titles".split())
#: generic section titles: a title's mean similarity to them is taken from its similarity to a description (a title
#: near every description, "Предмет контракта", is not what each means)
_GENERIC_TITLES = ("introduction", "summary", "conclusion", "references", "background", "methods", "results",
                   "discussion", "overview", "contact information", "scope", "definitions", "appendix",
                   "table of contents", "acknowledgements", "general provisions", "requirements", "schedule", "budget",
                   "responsibilities", "procedure", "purpose", "notes", "examples", "history", "terms and conditions",
                   "payment", "delivery", "confidentiality", "governing law", "signatures", "installation", "usage",
                   "configuration", "frequently asked questions", "license", "glossary", "objectives", "timeline",
                   "evaluation", "team", "risks", "costs", "training", "safety", "maintenance", "support", "contacts",
                   "annex", "abstract")
MIN_TITLE_MARGIN = 0.012  # the best title's lead over the next (similarities less the generic mean)
MIN_OVER_GENERIC = 0.01  # the description's lead over the generic titles' third nearest to the best title
MAX_TITLES = 400  # titles compared (the encoder takes ~10-30 ms each, once a document)


def section_descriptions(text: str, placed: bool = False) -> list[str]:
    """What `text` (what it does not dictate) describes a section by (:data:`_SECTION_DESCRIBED`), leaving out words
    that say which one ("the next section") rather than what it is about; a list's also as a list's title says it
    ("the abbreviations list": "list of abbreviations" too, nearer to "Перечень сокращений", dwh-322#2); `placed`:
    only the titles said bare before where the target is ("致谢下面那段")."""
    out = []
    for m in _SECTION_DESCRIBED.finditer(undictated(text)):
        if placed and m.group("place") is None:
            continue
        said = next(g for g in m.groups() if g is not None)
        if m.group("zh") is not None:
            said = _LEAD_IN.sub("", said)
            said = "" if _POINTER.match(said) else said
        # what a section is "on" or "called" is what it is about ("the section on opening an existing document")
        words = said.split() if m.group("after") else [w for w in said.split() if w.casefold() not in _NOT_A_TITLE]
        if words and len(" ".join(words)) >= (2 if m.group("zh") is not None else 3):
            out.append(" ".join(words))
            if re.search(r"\blist$" if m.group("before") else r"^list\b", m.group(0), re.IGNORECASE):
                out.append("list of " + " ".join(words))
    return list(dict.fromkeys(out))


def _titles(state: State) -> list[tuple[str, str, str]]:
    """The document's section titles: each body paragraph with a heading style, or unstyled and short like a label
    (:data:`MAX_LABEL_WORDS` words or, typed with a section number, :data:`MAX_TITLE_WORDS`; no closing punctuation;
    starting with a letter; not a contents entry, a second title like its heading's), with its text (its section number left out, capitals as a sentence) and the last
    paragraph of its section."""
    custom = custom_headings(state)
    out = []
    for p in state.get("paragraphs", []):
        text = p.get("text", "").strip()
        title = " ".join(SECTION_NUMBER.sub("", text).split())
        if not re.match(r"[^\W\d_]", title) or re.search(r"[{}<>=;]", title):
            continue
        if heading_level(p.get("style"), custom) is not None:
            end = (heading_section(state, p["id"]) or (None, p["id"]))[1]
        elif len(title.split()) <= (MAX_TITLE_WORDS if SECTION_NUMBER.match(text) else MAX_LABEL_WORDS) \
                and not re.search(r"[.:;,!?。]\s*$", text) and not CONTENTS_STYLE.match(p.get("style") or ""):
            end = _label_end(state, p["id"])
        else:
            continue
        if end is not None:
            out.append((p["id"], title.capitalize() if title.isupper() else title, end))
            if len(out) == MAX_TITLES:
                break
    return out


@functools.lru_cache(maxsize=1)
def _generic_vectors() -> np.ndarray:
    """The encoder's query vectors of :data:`_GENERIC_TITLES` (encoded once a process, not at every request)."""
    from autodw.intents.embedding import encoder

    return encoder().query(list(_GENERIC_TITLES))


def sections_described(state: State, text: str) -> list[tuple[str, str]]:
    """The sections (title, last paragraph) whose title a description of a section in `text` means in other words or
    another language (:func:`section_descriptions`; "the termination section" of a Russian contract names "9.
    РАСТОРЖЕНИЕ КОНТРАКТА", dwh-250#7): the title most like the description by multilingual-e5 similarity, less each
    title's mean similarity to generic titles (:data:`_GENERIC_TITLES`), when it leads the next by
    :data:`MIN_TITLE_MARGIN` and the description is nearer to it than the generic titles are (a made-up name means
    none)."""
    return _described(state, text)[0]


def _described(state: State, text: str) -> tuple[list[tuple[str, str]], list[str]]:
    """:func:`sections_described`, and the title nearest each description said bare before where the target is that
    found no section, however near (a short Chinese name of a generic or foreign title, "致谢下面" of "Acknowledgments",
    leads by less)."""
    descriptions = section_descriptions(text)
    placed = set(section_descriptions(text, placed=True))
    titles = _titles(state) if descriptions else []
    if len(titles) < 2:
        return [], []
    from autodw.intents.embedding import encoder, passages  # loaded only when a request describes a section

    vectors = passages([title for _, title, _ in titles])
    generic = _generic_vectors() @ vectors.T
    similar = encoder().query(descriptions) @ vectors.T
    out, nearest = [], []
    for description, scores in zip(descriptions, similar):
        adjusted = scores - generic.mean(axis=0)
        second, best = np.argsort(adjusted)[-2:]
        if adjusted[best] - adjusted[second] >= MIN_TITLE_MARGIN \
                and scores[best] - np.sort(generic[:, best])[-3] >= MIN_OVER_GENERIC:
            out.append((titles[best][0], titles[best][2]))
        elif description in placed:
            nearest.append(titles[best][0])
    return list(dict.fromkeys(out)), list(dict.fromkeys(nearest))


def sections_numbered(state: State, text: str) -> list[tuple[str, str]]:
    """The sections `text` names by their number ("section 7", "раздел 12", "第3章", "paragraph 105"; a section number
    said alone and bare, "In 18.33.030, ...", of a short title only, "18.33.030 Standards for ..."): the paragraphs
    typed with that section number ("7.\tОтветственность сторон", "12 REFERENCES", "105 - ..."; a contents entry's:
    its heading, :func:`_entry_section`), those reading as a
    title (up to :data:`MAX_TITLE_WORDS` words, no closing punctuation) when some do, each with the paragraph before the next
    number of its depth or above (:func:`~autodw.agent.grounding.numbered_end`); a number more than
    :data:`MAX_MATCHES` paragraphs start with names none."""
    paras = state.get("paragraphs", [])
    if not paras:
        return []
    out = []
    # a bare section number said alone ("In 18.33.030, item 2 under B") names its section when a title holds it
    bare = list(dict.fromkeys(_SAID_NUMBER.findall(undictated(loose(text)))))
    bare = bare if len(bare) == 1 else []
    # one it places its target in ("the little lists under 3.14"), among others or not, names a clause too
    named = [*(a or b for a, b in _PART_NUMBER.findall(loose(text))), *_PLACED_NUMBER.findall(undictated(loose(text)))]
    for said in dict.fromkeys([*named, *bare]):
        held = [p for p in paras if _numbered_as(p, said)]
        short = [p for p in held if len(p["text"].split()) <= MAX_TITLE_WORDS + 1]
        titles = [p for p in short if not re.search(r"[.:;,!?。]\s*$", p["text"])]
        # a bare number's title may end with a full stop
        held = titles or (short if said not in named else held)
        if len(held) <= MAX_MATCHES:
            out += [_entry_section(state, p["id"]) or (p["id"], numbered_end(state, p["id"], paras[-1]["id"]))
                    for p in held]
    return out


#: a section a request names by a Roman number ("section II", "Part IV", "chapter iii"): the numeral, of I, V and X
#: only (up to 39: "section C" or "Part L" are letters, as "C.\tCosts" is a lettered title)
_ROMAN_SAID = re.compile(r"(?<![^\W\d_])(?:sections?|chapters?|parts?|articles?|annex|appendix)\s+([ivx]{1,6})(?!\w)",
                         re.IGNORECASE)
#: a paragraph typed with a Roman number ("II.\tTowards a working definition", "IV) Costs"): the numeral
_ROMAN_TYPED = re.compile(r"\s*([IVX]{1,6})(?:[.)]\s*|\t)(?=\S)")
#: a paragraph typed with a number in words ("\tثالث عشر-\tتدابير الحماية الخاصة", "Third.\tCosts"): the words
_WORDED_TYPED = re.compile(r"\s*((?:[^\W\d_]|[\u064b-\u065f\u0670])+(?:[ ](?:[^\W\d_]|[\u064b-\u065f\u0670])+){0,2})"
                           r"\s*(?:[-–—.)]|\t)\s*(?=\S)")  # Arabic vowel marks in the words ("أولاً")
_ROMAN_VALUES = {"I": 1, "V": 5, "X": 10}
#: what says a part and those after it ("from chapter XI onwards", "section IV and beyond"), after its number
_ONWARDS = re.compile(r"\s*,?\s*(?:onwards?\b|and\s+(?:after|beyond|later|following|up)\b|to\s+the\s+end\b)",
                      re.IGNORECASE)


def roman_value(numeral: str) -> int:
    """The value of Roman numeral `numeral` ("IV": 4), read leniently."""
    values = [_ROMAN_VALUES[c] for c in numeral.upper()]
    return sum(-v if v < w else v for v, w in zip(values, [*values[1:], 0]))


def typed_number(text: str) -> int | None:
    """The number a paragraph is typed with as a Roman numeral ("II.\tTowards ...") or in words ("ثالث عشر-\t...",
    13: :func:`worded_number`), or None."""
    if (m := _ROMAN_TYPED.match(text)) is not None:
        return roman_value(m.group(1))
    m = _WORDED_TYPED.match(text)
    return None if m is None else worded_number(m.group(1))


def sections_roman(state: State, text: str) -> list[tuple[str, str]]:
    """The sections `text` names by a Roman number after a part word ("the sentence in italics in section II"): each
    paragraph typed with that number (:func:`typed_number`: "II.\tTowards a working definition", "ثالث عشر-\t..."
    of an Arabic report for "chapter XIII", dwh-379#6; a contents entry's: its heading) with the paragraph before the
    next one typed with a higher number; a number more than :data:`MAX_MATCHES` paragraphs start with names none."""
    paras = state.get("paragraphs", [])
    typed = [(i, value) for i, p in enumerate(paras) if (value := typed_number(p.get("text", ""))) is not None]
    said = undictated(text)
    out = []
    for numeral, onwards in dict.fromkeys((m.group(1).upper(), bool(_ONWARDS.match(said, m.end())))
                                          for m in _ROMAN_SAID.finditer(said)):
        value = roman_value(numeral)
        held = [n for n, (_, number) in enumerate(typed) if number == value]
        if len(held) > MAX_MATCHES:
            continue
        for n in held:
            start = typed[n][0]
            end = next((i - 1 for i, v in typed[n + 1:] if v > value), len(paras) - 1)
            out.append(_entry_section(state, paras[start]["id"]) or (paras[start]["id"], paras[end]["id"]))
            # "from chapter XI onwards": the labels numbered on from it, each alone (the sections are too many)
            later = itertools.takewhile(lambda t: t[1] > value, typed[n + 1:]) if onwards else ()
            out += [(paras[i]["id"], paras[i]["id"]) for i, _ in later]
    return out


#: a paragraph typed with its number, a dot or a dash after it ("7.\tОтветственность", "105 - ...", "٦٢-\t..." of a UN
#: text in Arabic): the number, in the digits of any script
_TYPED_NUMBER = re.compile(r"^\s*(\d+(?:\.\d+)*)(?:\.|\s*[-–—])?\s+(?=\S)")


def _numbered_as(p: dict[str, Any], number: str) -> bool:
    """Whether paragraph `p` is typed with section number `number` (:data:`_TYPED_NUMBER`: "paragraph 62" names
    "٦٢-\t...", dwh-487#4) and text after it, or is an auto-numbered list
    item of that label ("3.13" of "Требования к помещениям ..."); not one typed as a chapter's title by its Chinese
    number (:func:`chapters_numbered` reads those: "第三章  竞争性谈判须知" of a LibreOffice conversion is not chapter 2
    by its label "2.", dwh-404#3)."""
    typed = _TYPED_NUMBER.match(loose(p.get("text", "")))
    if typed is not None:
        return _ascii_number(typed.group(1)) == _ascii_number(number)
    if chapter_typed(p) is not None:
        return False
    return section_numbers(p) == tuple(int(n) for n in number.split(".")) and bool(p.get("text", "").strip())


def _ascii_number(number: str) -> str:
    """A section number in ASCII digits, without its outer dots, compared digit by digit ("٦٢" is "62"; "3.01" is not
    "3.1")."""
    return "".join(str(unicodedata.digit(c)) if c.isdigit() else c for c in number).strip(".")


def _entry_section(state: State, pid: str) -> tuple[str, str] | None:
    """For a contents entry with its heading in the document ("1.2\tThe Flagpole Project\t10" of an auto-numbered
    heading): that heading and the last paragraph of its section (the number names the section, not the entry)."""
    heading = contents_entries(state).get(pid)
    section = heading_section(state, heading) if heading else None
    return (heading, section[1]) if heading and section else None


def said_whole(state: State, text: str, from_end: bool = False) -> list[str]:
    """The body paragraphs, then the table cells' paragraphs (each with its table), whose whole text (case, spacing
    and end punctuation aside) is a segment of `text` (between its punctuation), in the segments' order: "the row of
    序号、类别、包括产品 under each category" names the cells of a long table's rows past those shown. Of a text more
    than :data:`MAX_MATCHES` paragraphs hold, the first ones; `from_end` (the request points at the end: "Chapter 7,
    right at the end" of a document that repeats its chapters), the last ones, last first."""
    segments = [key for part in _SEGMENT_END.split(text) if len(key := unspaced(part).strip(_TRIM)) >= 2]
    if not segments:
        return []
    by_text: dict[str, list[list[str]]] = {}
    for p in state.get("paragraphs", []):
        by_text.setdefault(_whole_key(p), []).append([p["id"]])
    for t in state.get("tables", []):
        for row in t.get("cell_details", []):
            for cell in row:
                for p in (cell or {}).get("paragraphs", []):  # None: a cell covered by a merge
                    by_text.setdefault(_whole_key(p), []).append([p["id"], t["id"]])
    def held(key: str) -> list[list[str]]:
        holders = by_text.get(key) or by_text.get(_LIST_CLOSE.sub("", key).strip(_TRIM), [])
        return holders[::-1][:MAX_MATCHES] if from_end else holders[:MAX_MATCHES]
    return list(dict.fromkeys(i for key in dict.fromkeys(segments) for ids in held(key) for i in ids))


def _whole_key(p: dict[str, Any]) -> str:
    """A paragraph's text as :func:`said_whole` compares it."""
    return unspaced(p.get("text", "")).strip(_TRIM)


def alike(state: State, ids: list[str]) -> list[str]:
    """The non-empty body paragraphs of a kind (style, list and list level) that two or more of `ids` are of, the kind
    of the first of `ids` first; those that also look like them (:func:`~autodw.agent.grounding.look`: the bold lines
    "Class Culmann", "Class IntroPanel" among plain Normal code lines) first, up to :data:`MAX_ALIKE` of each. Before
    those, the lines typed with labels like theirs around the first :data:`MAX_MATCHES` of `ids` (:func:`typed_run`):
    the list they are items of ("Miramar, Casa del Mar, etc." of lines "a. Miramar: ..." to "d. Arleta Park: ..." in
    a document all in one style, dwh-463#4). Before those, up to :data:`MAX_ALIKE` of each lead, the short lines of their kind starting with the word two or more of
    them start with (:func:`_lead`: "点滴智慧、…、心灵鸡汤这些" names each heading's eight lines, dwh-461#4; "Artigo
    Primeiro, Artigo Segundo, etc." of statutes all in one style names every "Artigo ..." line), and before those
    the short lines of their kind written as two or more of them are but for their numbers (:func:`_numbered_like`:
    "01CD, 02CD and so on" names every "NNCD：" line, not the other bold lines among them, dwh-405#2)."""
    paras = [p for p in state.get("paragraphs", []) if p.get("text", "").strip()]
    out = [pid for key in (_numbered_like, _lead) for pid in _of_kinds(paras, ids, key)]
    # the list they are items of (dwh-463#4: "Miramar, Casa del Mar, etc." of four lettered lines), before the lines
    # of their style anywhere else (every Normal line of a document all in one style and font)
    out += [i for pid in ids[:MAX_MATCHES] for i in typed_run(state, pid)]
    # the items labelled right before and after a named one ("question 5 ... like the rest": "4." and "6.", dwh-474#2)
    out += [i for pid in ids[:MAX_MATCHES] for i in labels_around(state, pid)]
    out += [pid for key in (_kind, _list_kind) for pid in _of_kinds(paras, ids, key)]
    return list(dict.fromkeys(out))


def _of_kinds(paras: list[dict[str, Any]], ids: list[str], key: Callable[[dict[str, Any]], Any]) -> list[str]:
    """The ids of `paras` of a kind (by `key`) that two or more of `ids` are of, the kind of the first first: up to
    :data:`MAX_ALIKE` of each label's (:func:`_numbered_like`, :func:`_lead`: one kind per label the request names),
    of all kinds together for a style's (module :func:`alike`)."""
    of = {p["id"]: key(p) for p in paras}
    named = [of[i] for i in ids if i in of]
    kinds = list(dict.fromkeys(k for k in named if k is not None and named.count(k) >= 2))
    held = [[p["id"] for p in paras if of[p["id"]] == k] for k in kinds]
    if key in (_numbered_like, _lead):
        return [pid for ids_of in held for pid in ids_of[:MAX_ALIKE]]
    return [pid for ids_of in held for pid in ids_of][:MAX_ALIKE]


def _lead(p: dict[str, Any]) -> tuple[Any, ...] | None:
    """A short line's kind (:func:`_short`) and first word; None for a longer one."""
    short = _short(p)
    return None if short is None else (*short, loose(p.get("text", "")).split()[0])


def _numbered_like(p: dict[str, Any]) -> tuple[Any, ...] | None:
    """A short line's kind (:func:`_short`) and text with each run of digits as one "0", when it holds a digit; None
    for a longer line or one without."""
    short, text = _short(p), loose(p.get("text", ""))
    return None if short is None or not re.search(r"\d", text) else (*short, re.sub(r"\d+", "0", text))


def _short(p: dict[str, Any]) -> tuple[Any, ...] | None:
    """The kind (:func:`_kind`) of a line of up to :data:`MAX_LABEL_WORDS` words; None for a longer one."""
    if not 0 < len(p.get("text", "").split(None, MAX_LABEL_WORDS)) <= MAX_LABEL_WORDS:  # a long line is not folded
        return None
    return _kind(p)


def _opened(p: dict[str, Any]) -> tuple[Any, ...] | None:
    """A line's style, list and list level (:func:`_list_kind`) and first word, whatever its length and look; None for
    an empty one."""
    words = loose(p.get("text", "")).split()
    return (_list_kind(p), words[0]) if words else None


def _first_word(p: dict[str, Any]) -> str | None:
    """A line's first word, whatever its style, list, length and look; None for an empty one."""
    words = loose(p.get("text", "")).split()
    return words[0] if words else None


def more_named(state: State, text: str) -> list[str]:
    """The first N body paragraphs with text after the last of the ids `text` names (then before it) of a kind (style, list and list
    level) two or more of them are of (of theirs, when they share none), when it names them and "and N more"
    ("paragraphs p1, p2, p3, p4, p5, p6 and 14 more": the other number words of the list, dwh-336#7); when they are
    all short lines starting with one word (:func:`_lead`), or all short lines of one look (:func:`_short`: bold labels
    among bold sentences, dwh-400#4), or all look alike (:func:`_kind`), or all of one style starting with one word
    (:func:`_opened`: table captions "الجدول 1" to "الجدول 8", long or short, some bold, some half bold, dwh-424#4), or
    all start with one word whatever their style and list (:func:`_first_word`: the "[expect]..." lines of three lists,
    each of its own numbering and levels, dwh-485#7), and N such lines follow, those (the "Artigo ..." headings among plain Normal lines of one look, dwh-354#5); when they are typed numbered
    titles (:func:`titles_typed`), the N titles after them, whatever their style (dwh-378#4). The wording comes from step text
    that abbreviates a list of ids (the ceiling's planner writes it; real planners rarely do)."""
    m = _AND_MORE.search(text)
    if m is None:
        return []
    paras = [el for el, table in body_blocks(state) if not table and el.get("text", "").strip()]
    if state.get("styles"):  # how each is aligned on the page ("John" set left among names the style justifies)
        looks = Formatting(state["styles"])
        paras = [_aligned_as_seen(p, looks) for p in paras]
    at = {p["id"]: n for n, p in enumerate(paras)}
    ids = [i for i in ID_IN_TEXT.findall(text[:m.start()]) if i in at]
    if not ids:
        return []
    last = max(at[i] for i in ids)
    # after the last named, then those before it not named (a line moved above them since, dwh-387#7)
    count, rest = int(m.group(1)), paras[last + 1:] + [p for p in paras[:last] if p["id"] not in ids]
    titles = titles_typed(state)  # typed numbered titles, one of another style ("7.\tОтветственность...", dwh-378#4)
    if len(ids) >= 2 and set(ids) <= set(titles):
        after = titles[max(titles.index(i) for i in ids) + 1:]
        if len(after) == count:
            return after
    for key in (_lead, _short, _kind, _opened, _first_word):
        named = {key(paras[at[i]]) for i in ids}
        if len(ids) >= 2 and len(named) == 1 and None not in named:
            same = [p["id"] for p in rest if key(p) in named][:count]
            if len(same) == count:
                return same
    named = [_list_kind(paras[at[i]]) for i in ids]
    kinds = {k for k in named if named.count(k) >= 2} or set(named)
    after = (p["id"] for p in rest if _list_kind(p) in kinds)
    return list(itertools.islice(after, count))


def _aligned_as_seen(p: dict[str, Any], looks: Formatting) -> dict[str, Any]:
    """`p` with the alignment it shows (styles resolved), a line of up to :data:`MAX_LABEL_WORDS` words justified as
    left-aligned: a justified paragraph's last line is not stretched, so its one line looks as set left
    (:func:`more_named`: "John" set left among the names of cases the style justifies, dwh-403#1)."""
    shown = looks.paragraph(p).get("alignment")
    if shown in ("justify", "both") and _short(p) is not None:
        shown = "left"
    return {**p, "alignment": shown}


def typed_run(state: State, pid: str) -> list[str]:
    """The paragraphs one after the other (empty ones between them aside) around paragraph `pid` typed with a label
    of the same kind as its own (brackets, and digits, a letter of its case or of its script: "(ل) قلب: ...",
    "(أ) أهداف: ..." of a list typed by hand, dwh-275#5), when there are two or more, up to :data:`MAX_ALIKE`."""
    paras = state.get("paragraphs", [])
    at = next((n for n, p in enumerate(paras) if p["id"] == pid), None)
    shape = None if at is None else _label_shape(paras[at].get("text", ""))
    if shape is None:
        return []
    run = [at]
    for step in (-1, 1):
        n = at + step
        while 0 <= n < len(paras) and len(run) < MAX_ALIKE:
            text = paras[n].get("text", "")
            if text.strip():
                if _label_shape(text) != shape:
                    break
                run.append(n)
            n += step
    return [paras[n]["id"] for n in sorted(run)] if len(run) > 1 else []


def _label_shape(text: str) -> tuple[str, ...] | None:
    """The kind of label a line is typed with (:data:`_TYPED_LABEL`): its brackets and "1", "A", "a" or, for another
    script's letter, the script's first letter's name word ("ARABIC"); None for a line typed with none."""
    m = _TYPED_LABEL.match(text)
    if m is None:
        return None
    label = m.group(2)
    kind = ("1" if label.isdigit() else "A" if label.isascii() and label.isupper() else "a" if label.isascii()
            else unicodedata.name(label[0], "?").split()[0])
    return m.group(1), kind, m.group(3)


def parts(text: str) -> tuple[str, ...]:
    """The parts outside the body that `text` names (the page header, the pictures, the comments...)."""
    said = undictated(text)
    return tuple(part for part, words in _PART_WORDS.items() if words.search(said))
