"""The body blocks that hold a request's distinctive words, for centring a windowed view on them.

A request often names its target by words it shares with it and with few other paragraphs ("Case 3 (negative top
margin)", "附件3那个申报材料清单", "BH.ADM.014"), without quoting or naming it as grounding reads names. A word is
distinctive when it is in at most :data:`MAX_DOCUMENT_FREQUENCY` blocks of this document, or
:data:`MAX_DOCUMENT_SHARE` of a long one's (an everyday word, "make", "same", is in many or in none) and is no function word; Chinese is read as pairs of characters (digits kept with
them: 表2), code-like tokens split at their punctuation (BH.ADM.014 -> bh, adm, 014), a word glued to a number read as a word
too (Livermore94550 -> livermore94550, livermore). Two words the request says
one after the other are also read as a phrase ("payables aging", "research studies"), found where a block says them
so too: its words may each be in many blocks ("market", "research"), the phrase in few. A block is ranked by the sum
of 1 / document frequency of the distinctive words and phrases it holds; one is returned only when it holds two of
them, or a code-like word or a phrase that no other block holds, or it says nothing but distinctive words the request
says (the lines "<dependency>" of "the two Maven dependency snippets"). A name the request says (:func:`names_held`:
"Burda's article") points at the few blocks holding it, however common the request's other words are there.
"""

from __future__ import annotations

import functools
import math
import os
import re
from typing import Any, Iterator

from autodw.analysis.state import State

MAX_DOCUMENT_FREQUENCY = 3  # blocks a distinctive word may be in (in a short document)
MAX_DOCUMENT_SHARE = 0.02  # of a long document's blocks a distinctive word may be in, when more than the above
MAX_BLOCKS = 2  # blocks returned
MIN_SCORE = 1.5  # e.g. two words each in one block, or one in one block and one in two
MIN_GLUED = 4  # letters of a word glued to a number that is read as a word too
MIN_TOGETHER = 3  # the request's words a block holds together that name it when each is in many blocks
MAX_NAME_BLOCKS = 3  # blocks a name the request says may be in (more: a word of the text, not what names the target)
MAX_NAMES = 3  # names of a request whose blocks are returned
_CJK = r"\u3400-\u9fff"
#: function words that a document's few paragraphs may hold too ("the same", "can you"): never distinctive
_FUNCTION_WORDS = frozenset("""the and for are but not you your can could would should will make made same also
this that these those with from into onto over under above below then than them they their there here what which
who whom when where why how all any each every both some more most other such only own just very too again once after out
please thanks thank like want need change set put use keep give take let its it's was were been being have has had
does did doing done one two three first last next new text paragraph paragraphs line lines sentence word words
section document table row column cell page bold italic font size colour color""".split())
#: Chinese function characters (particles, pronouns, measure words, place words): a pair of characters with one names
#: nothing, here nor in grounding's table descriptions ("那张", "上面", "的表")
FUNCTION_CHARACTERS = re.compile(r"[的了是在把给和与及或也都就那这个张些里上下中面对将请帮我你他她它们一]")
#: a letter or digit of an alphabetic script (Latin, Cyrillic, Greek, Arabic...: not CJK, read as pairs), and a letter
ALNUM = rf"[^\W_{_CJK}\u3040-\u30ff]"
_LETTER = rf"[^\W\d_{_CJK}\u3040-\u30ff]"
_LATIN = re.compile(rf"{ALNUM}+(?:[._:/-]{ALNUM}+)*")
_LATIN_WORD = re.compile(rf"{_LETTER}+")  # a word of letters of an alphabetic script ("Burda" of "Burda's")
_CJK_RUN = re.compile(rf"[{_CJK}0-9]+")
#: Cyrillic and Greek letters that look like Latin ones (a code's letter typed in either: "1-А" for "1-A")
_CONFUSABLE = "АВЕКМНОРСТУХаеорсухіјѕΑΒΕΖΗΙΚΜΝΟΡΤΥΧο"
_LOOK_ALIKE = str.maketrans(_CONFUSABLE, "ABEKMHOPCTYXaeopcyxijsABEZHIKMNOPTYXo")
LOOK_ALIKE_LETTERS = re.compile(f"[{_CONFUSABLE}]")  # those of them
#: Cyrillic letters as a name is spelt in the Latin alphabet ("Кашин" Kashin, "Гошовская" Goshovskaya)
_ROMAN = str.maketrans({**dict(zip("абвгдезийклмнопрстуфыэіґў", "abvgdeziyklmnoprstufyeigu")),
                        "ё": "e", "ж": "zh", "х": "kh", "ц": "ts", "ч": "ch", "ш": "sh", "щ": "shch", "ъ": "", "ь": "",
                        "ю": "yu", "я": "ya", "ї": "yi", "є": "ye"})
MIN_SPELT = 4  # letters of a name said in another alphabet that is looked for spelt in the document's
MIN_STEM = 5  # letters two such spellings share before their endings for one to be the other inflected
MAX_ENDING = 3  # letters of an ending either has after them (a case ending: "Гарнизонного" for "Garnizonnoe")
#: a word glued to a number in a code-like token ("Livermore94550", "Orleans70146"): read as a word too
_GLUED = re.compile(rf"(?:(?<=\d)|^){_LETTER}{{{MIN_GLUED}}}{_LETTER}*(?=\d|$)")


def _latin_words(text: str) -> Iterator[tuple[str, bool]]:
    """Each word of `text` in an alphabetic script (Latin, Cyrillic, Greek, Arabic...; lower case) with whether it is
    code-like (part of a token with punctuation inside, or holding a digit and a letter, or written in capitals); a
    code of a number and letters none of which is a word ("1-A", "2b") is one word, its Cyrillic and Greek letters
    read as the Latin ones they look like ("Приложение 1-А" typed with a Cyrillic А)."""
    for m in _LATIN.finditer(text):
        token = m.group(0)
        parts = re.findall(rf"{ALNUM}+", token)
        code = len(parts) > 1 or (re.search(r"\d", token) is not None and re.search(_LETTER, token) is not None)
        words = 0
        for part in parts:
            word = part.casefold()
            capitals = len(part) >= 2 and part.isupper()
            if word in _FUNCTION_WORDS or part.isdigit() and len(parts) == 1:
                continue  # a bare number is a count or a size more often than a name
            if len(word) >= 3 or capitals or (code and len(word) >= 2):
                words += 1
                yield word, code or capitals
            for glued in _GLUED.findall(part) if re.search(r"\d", part) else ():  # "Livermore94550": "Livermore"
                if glued.casefold() not in _FUNCTION_WORDS:
                    yield glued.casefold(), False
        if not words and re.search(r"\d", token) and re.search(_LETTER, token):
            yield unconfused(token).casefold(), True


def unconfused(text: str) -> str:
    """`text` with its Cyrillic and Greek letters read as the Latin ones they look like ("Саа1" typed with Cyrillic С
    and а reads "Caa1")."""
    return text.translate(_LOOK_ALIKE)


#: a range of codes of a letter or two and a number ("B2 - B5", "A1–A5"): a phrase, its spacing aside
_CODE_RANGE = re.compile(rf"(?<!{ALNUM})([A-Za-z]{{1,2}}\d+)\s*[-–—]\s*([A-Za-z]{{1,2}}\d+)(?!{ALNUM})")


def _phrases(text: str) -> set[str]:
    """The pairs of words `text` says one after the other (lower case, one space apart), neither a function word nor
    a number nor shorter than 3 letters: "Market research studies" -> "market research", "research studies"; and its
    ranges of codes (:data:`_CODE_RANGE`: "answer B2 - B5" names the one line saying "B2 - B5", dwh-343#5)."""
    words = list(re.finditer(rf"{_LETTER}+", text))
    out: set[str] = {f"{a.casefold()}-{b.casefold()}" for a, b in _CODE_RANGE.findall(text)}
    for a, b in zip(words, words[1:]):
        first, second = a.group(0).casefold(), b.group(0).casefold()
        if text[a.end():b.start()].isspace() and all(len(w) >= 3 and w not in _FUNCTION_WORDS for w in (first, second)):
            out.add(f"{first} {second}")
    return out


def _pairs(text: str) -> set[str]:
    """The pairs of CJK characters (and digits next to them) of `text`, without function characters."""
    out: set[str] = set()
    text = re.sub(rf"(?<=[{_CJK}])\s+(?=[{_CJK}])", "", text)  # "申 请 表" spaced out for width
    for run in _CJK_RUN.findall(text):
        if not re.search(rf"[{_CJK}]", run):
            continue
        out |= {run[i:i + 2] for i in range(len(run) - 1)
                if re.search(rf"[{_CJK}]", run[i:i + 2]) and not FUNCTION_CHARACTERS.search(run[i:i + 2])}
    return out


def block_texts(state: State) -> list[tuple[str, str]]:
    """(id, text) per body block: each body paragraph, each table (its cells' text)."""
    out = [(p["id"], p.get("text", "")) for p in state.get("paragraphs", [])]
    for t in state.get("tables", []):
        if "nested_in" not in t:
            out.append((t["id"], " ".join(str(c) for row in t.get("cells", []) for c in row)))
    return out


def distinctive_blocks(state: State, text: str) -> list[str]:
    """The ids of at most :data:`MAX_BLOCKS` body blocks holding `text`'s distinctive words, best first."""
    return [block_id for block_id, score, named in ranked_blocks(state, text) if score >= MIN_SCORE or named][:MAX_BLOCKS]


def names_held(state: State, text: str) -> list[str]:
    """The body blocks holding a name `text` says, per name in its order (at most :data:`MAX_NAMES`): a word it writes
    with a capital ("Burda's article", "Skolek's surname") that 1 to :data:`MAX_NAME_BLOCKS` blocks hold, each written
    with a capital there too ("Burda", "BURDA": never "burda"), so a name said among words the document is full of
    (an English request on a German journal) still shows the lines of its person. A name said in the Latin alphabet
    is also found spelt in the Cyrillic one (:func:`spelt`: "Kashin" holds "А.Г.Кашин", dwh-322#4), in the first
    :data:`MAX_NAME_BLOCKS` blocks however many hold it (a word in another alphabet with the same spelling is a name:
    a signature under every appendix), also inflected (:func:`inflected`: "the Garnizonnoe settlement" holds "Устав
    Гарнизонного сельского поселения", dwh-466#8)."""
    said = list(dict.fromkeys(m.group(0).casefold() for m in re.finditer(_LATIN_WORD, text)
                              if m.group(0)[0].isupper() and len(m.group(0)) >= 3
                              and m.group(0).casefold() not in _FUNCTION_WORDS))
    if not said:
        return []
    holding: dict[str, list[str]] = {w: [] for w in said}
    other = {spelt(w): w for w in said if len(w) >= MIN_SPELT and w.isascii()}  # said in the Latin alphabet
    stems: dict[str, list[str]] = {}  # their spellings by their first MIN_STEM letters
    for spelling in other:
        stems.setdefault(spelling[:MIN_STEM], []).append(spelling)
    crossed: set[str] = set()  # the names found in another alphabet
    lower: set[str] = set()
    for block_id, body in block_texts(state):
        for m in re.finditer(_LATIN_WORD, body):
            word = m.group(0).casefold()
            if word not in holding and not word.isascii() and (found := inflected(spelt(word), stems)):
                word = other[found]
                crossed.add(word)
            if word in holding:
                if not m.group(0)[0].isupper():
                    lower.add(word)
                elif block_id not in holding[word]:
                    holding[word].append(block_id)
    names = [w for w in said if w not in lower and holding[w]
             and (len(holding[w]) <= MAX_NAME_BLOCKS or w in crossed)][:MAX_NAMES]
    return list(dict.fromkeys(b for w in names for b in holding[w][:MAX_NAME_BLOCKS]))


MAX_DRAWINGS = 3  # pictures and charts returned by the words of their alt text
#: the joints of a name written as one word ("CulmannMain", "mohr_help"): read as the words they join
_NAME_JOINT = re.compile(r"(?<=[a-z])(?=[A-Z])|_")


def drawings_described(state: State, text: str) -> list[str]:
    """The pictures and charts whose alt text (a chart's: with its title, categories and series names) holds a word of
    `text` that at most :data:`MAX_DRAWINGS` of them hold (a name written as one word read as its words:
    "CulmannMain"), best first (by the sum of 1 / the drawings holding each), at most :data:`MAX_DRAWINGS`: a request
    names a picture by what it shows ("the main screen screenshot" of 17 screenshots, dwh-367#4), a chart by its title
    or data ("the fruit column chart ... the banana value", dwh-418#1), which no paragraph says."""
    words = {w for w, _ in _latin_words(text)}
    held = [(img["id"], {w for w, _ in _latin_words(_NAME_JOINT.sub(" ", _drawing_text(img)))} & words)
            for img in state.get("images", []) if img.get("id")]
    frequency: dict[str, int] = {}
    for _, mine in held:
        for word in mine:
            frequency[word] = frequency.get(word, 0) + 1
    scored = [(-sum(1 / frequency[w] for w in mine if frequency[w] <= MAX_DRAWINGS), n, eid)
              for n, (eid, mine) in enumerate(held)]
    return [eid for score, _, eid in sorted(scored) if score < 0][:MAX_DRAWINGS]


def _drawing_text(img: dict[str, Any]) -> str:
    """A drawing's alt text, and a chart's title, categories and series names."""
    said = [img.get("alt_text"), img.get("title"), *(img.get("categories") or []),
            *(s.get("name") for s in img.get("series") or [] if isinstance(s, dict))]
    return " ".join(str(w) for w in said if w)


def inflected(spelling: str, stems: dict[str, list[str]]) -> str | None:
    """The spelling of `stems` (by their first :data:`MIN_STEM` letters) that `spelling` is, or is but for the endings:
    all letters alike up to the last :data:`MAX_ENDING` or fewer of each and at least :data:`MIN_STEM` ("garnizonogo",
    Гарнизонного, for "garnizonoe", Garnizonnoe: a name said in its dictionary form, written in the document
    declined)."""
    candidates = stems.get(spelling[:MIN_STEM], [])
    if spelling in candidates:
        return spelling
    for candidate in candidates:
        shared = len(os.path.commonprefix([candidate, spelling]))
        if shared >= MIN_STEM and len(candidate) - shared <= MAX_ENDING and len(spelling) - shared <= MAX_ENDING:
            return candidate
    return None


@functools.lru_cache(maxsize=1 << 16)
def spelt(word: str) -> str:
    """`word` (lower case) as its spellings in the Latin alphabet compare: Cyrillic letters romanised (:data:`_ROMAN`),
    y and j read as i, x as ks, kh as h, a letter doubled as one ("Юрий", "Yuriy", "Yury" and "Iurii" alike)."""
    roman = word.translate(_ROMAN).replace("x", "ks").replace("kh", "h").translate(str.maketrans("yj", "ii"))
    return re.sub(r"(.)\1+", r"\1", roman)


def ranked_blocks(state: State, text: str, blocks: list[tuple[str, str]] | None = None) -> list[tuple[str, float, bool]]:
    """Each body block (or each of `blocks`, (id, text) pairs: a table's cell paragraphs) holding a word of `text`
    that at most :func:`most_blocks` of them hold, best first: (id, sum of 1 / document frequency of those words,
    whether one is a code-like word or phrase no other block holds or the block's words are all such words)."""
    words = dict(_latin_words(text))
    phrases = _phrases(text)
    words.update({phrase: True for phrase in phrases})  # a phrase in one block names it as a code does
    pairs = _pairs(text)
    if not words and not pairs:
        return []
    held: list[tuple[str, set[str]]] = []
    whole: list[set[str]] = []  # each block's words, when the request says them all ("  <dependency>")
    for block_id, body in block_texts(state) if blocks is None else blocks:
        own = {w for w, _ in _latin_words(body)}
        mine = (own | (_phrases(body) & phrases if phrases else set())) & words.keys()
        whole.append(own if own <= mine else set())
        joined = re.sub(r"\s+", "", body)  # "填 写 说 明" spaced out for width
        held.append((block_id, mine | {p for p in pairs if p in joined}))
    frequency: dict[str, int] = {}
    for _, tokens in held:
        for token in tokens:
            frequency[token] = frequency.get(token, 0) + 1
    limit = most_blocks(len(held))
    rare = {t for t, n in frequency.items() if n <= limit}
    said = set(words) - phrases | pairs
    together = _together(held, said, limit)
    ranked: list[tuple[float, int, str, bool]] = []
    for n, (block_id, tokens) in enumerate(held):
        mine = tokens & rare
        if mine or block_id in together:
            named = any(words.get(t) and frequency[t] == 1 for t in mine) or bool(mine) and mine == whole[n]
            score = sum(1 / frequency[t] for t in mine) + (len(tokens & said) / len(together) if block_id in together else 0)
            ranked.append((-score, n, block_id, named))
    return [(block_id, -score, named) for score, _, block_id, named in sorted(ranked)]


def most_blocks(blocks: int) -> int:
    """The blocks a distinctive word may be in, of a document of `blocks` blocks: :data:`MAX_DOCUMENT_FREQUENCY`, or
    :data:`MAX_DOCUMENT_SHARE` of a long document's (rounded up)."""
    return max(MAX_DOCUMENT_FREQUENCY, math.ceil(blocks * MAX_DOCUMENT_SHARE))


def _together(held: list[tuple[str, set[str]]], said: set[str], limit: int) -> set[str]:
    """The blocks holding the most of the request's words (`said`: its words and Chinese pairs, not its phrases) when
    they are :data:`MIN_TOGETHER` or more and at most `limit` blocks hold as many: words that are each in many blocks
    ("common", "respective", "roles") name the few that hold them all, as if each word were in those blocks only (a
    block's score: the words it holds / the blocks holding as many)."""
    counts = {block_id: len(tokens & said) for block_id, tokens in held}
    most = max(counts.values(), default=0)
    best = {block_id for block_id, n in counts.items() if n == most}
    return best if most >= MIN_TOGETHER and len(best) <= limit else set()
