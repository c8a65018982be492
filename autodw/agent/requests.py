"""The requests of a compound instruction, split by punctuation and connectives, so a small planner handles one at a
time ("A few changes: centre the title; make the Budget heading green. Then add a page break before ...").

Boundaries, outside quotes and brackets only: a full-width semicolon or full stop (Chinese); a Chinese comma followed
by a connective (然后, 接着, 另外, 此外, 同时, 最后, 再), or a connective right after a closing quote; a closing quote after a
sentence end and before a capital ('... "on Monday." Then ...'); an ASCII semicolon followed by a lower-case word ("; add a
section", but not the data list "Draft, Sam, Done; Review, Kim, Open"); ", then" before a word that is not an
article or number (", then insert ...", but not ", then a table with ..." that describes the same request's
content); a sentence end followed by a capital letter.
A lead-in ("A few changes:", "Several edits, please.", "有几处要改：") and closing courtesies ("谢谢", "thanks") are
dropped; connectives that start a request are removed. A clause that qualifies the request before it ("; no password
needed", "; rows Draft, Sam, Done") or a Chinese list item after "：" (no action word) stays with that request. An
instruction without boundaries is one request.
"""

from __future__ import annotations

import re

#: opening mark -> closing mark of the spans a boundary cannot fall inside
_PAIRS = {"“": "”", "「": "」", "『": "』", "（": "）", "(": ")", "[": "]", "《": "》", '"': '"'}
_QUOTE_ENDS = {"”", "」", "』", '"'}
_ZH_CONNECTIVES = "然后|接着|另外|此外|同时|最后|再"  # after "，" they begin another request
_ZH_CONNECTIVE = re.compile(f"(?:{_ZH_CONNECTIVES})")
_AFTER_QUOTE = re.compile(r"(?:然后|接着|另外|此外)")  # right after a closing quote (“...。”接着...); not 再/最后/同时
_LEAD_CONNECTIVE = re.compile(rf"^(?:(?:{_ZH_CONNECTIVES}|还有)[，,]?|(?:and then|then|and|also|finally|"
                              r"first|next|lastly|after that)\b[,]?\s*)", re.IGNORECASE)
_LEAD_IN = re.compile(r"^[^“”\"「」:：]{0,40}[:：]\s*(?=\S)")  # "A few changes:" before the first request
_LEAD_IN_WORDS = re.compile(r"\b(?:changes|edits|fixes|things|updates)\b|几(?:处|个地方|点)", re.IGNORECASE)
_COURTESY = re.compile(r"^(?:谢谢|多谢|麻烦了|辛苦了|thanks|thank you|please|cheers)[!.。！ ]*$", re.IGNORECASE)
_LEAD_IN_SENTENCE = re.compile(r"^(?:(?:several|a few|some|a couple of|two|three|four|five) (?:edits|changes|things|fixes)"
                               r"|(?:有|改)?几(?:处|个地方)要?改)[,， ]*(?:please|请)?[.!。！]*$", re.IGNORECASE)
#: a clause that qualifies the request before it ("; no password needed", "; rows Draft, Sam, Done")
_QUALIFIER = re.compile(r"^(?:no|not|leave|leaving|without|keep|keeping|but|except|only|so|which|with|rows?|columns?|"
                        r"data)\b", re.IGNORECASE)
#: a Chinese clause without one of these is an item of a list the request before it opened with "："
_ZH_ACTION = re.compile(r"把|将|在|给|为|设|改|加|删|插|换|用|让|调|移|挪|复制|创建|新增|新建|应用|套用|取消|更新|刷新|居中|"
                        r"标|做|放|写|开启|打开|关闭|启用|保护|断开|拆|合并|缩进|对齐|排|替换|添加|定义")
_ABBREVIATIONS = ("e.g", "i.e", "etc", "mr", "mrs", "ms", "dr", "no", "fig", "vs", "st")
_TRAILING_COURTESY = re.compile(r"[，,]\s*(?:谢谢|多谢|麻烦了|辛苦了|thanks|thank you)[!.。！]*$", re.IGNORECASE)
MIN_REQUEST_CHARS = 4


def _boundaries(text: str) -> list[tuple[int, int]]:
    """(start, end) of each separator of `text` that ends a request."""
    found, closing = [], []
    for i, ch in enumerate(text):
        if closing and ch == closing[-1]:
            closing.pop()
            if not closing and _AFTER_QUOTE.match(text[i + 1:]):  # “...。”接着...: nothing between
                found.append((i + 1, i + 1))
            elif not closing and text[i - 1:i] in (".", "?", "!") and re.match(r"\s+[A-Z]", text[i + 1:]):
                found.append((i + 1, i + 1))  # 'with "... on Monday." Then give ...': the sentence ends in the quote
        elif closing and closing[-1] in _QUOTE_ENDS:
            pass  # inside a quote only its end counts: "[Describe the purpose of" opens no bracket
        elif ch in _PAIRS:
            closing.append(_PAIRS[ch])
        elif not closing:
            rest = text[i + 1:]
            if ch in "；。" and rest.strip():
                found.append((i, i + 1))
            elif _ZH_CONNECTIVE.match(rest) and (ch == "，" or (ch == "," and re.search(r"[\u4e00-\u9fff]", text[i - 1:i]))):
                found.append((i, i + 1))
            elif ch == "," and re.match(r"\s+(?:and\s+)?then\s+(?!(?:a|an|the|one|two|three)\b)[a-z]", rest):
                found.append((i, i + 1))
            elif ch == ";" and re.match(r"\s+[a-z]", rest):
                found.append((i, i + 1))
            elif ch in ".?!" and re.match(r"\s+[A-Z\u4e00-\u9fff“\"]", rest) and not _abbreviation(text[:i]):
                found.append((i, i + 1))
    return found


def _abbreviation(before: str) -> bool:
    word = re.search(r"([A-Za-z.]+)$", before)
    return bool(word) and word.group(1).lower().rstrip(".") in _ABBREVIATIONS


def _clean(part: str) -> str:
    part = _TRAILING_COURTESY.sub("", part.strip()).strip("；;，,").strip()
    previous = None
    while previous != part:
        previous, part = part, _LEAD_CONNECTIVE.sub("", part).strip()
    return part


def split(instruction: str) -> list[str]:
    """The requests `instruction` makes, in order (the whole instruction when it makes one)."""
    text = instruction.strip()
    lead = _LEAD_IN.match(text)
    body = text[lead.end():] if lead and _LEAD_IN_WORDS.search(lead.group(0)) else text
    parts, start = [], 0
    for b_start, b_end in _boundaries(body):
        parts.append(body[start:b_start])
        start = b_end
    parts.append(body[start:])
    requests: list[str] = []
    for raw, part in zip(parts, map(_clean, parts)):
        if _COURTESY.match(part) or (not requests and _LEAD_IN_SENTENCE.match(part)):
            continue
        if len(part) < MIN_REQUEST_CHARS and not re.search(r"[\u4e00-\u9fff]{2}", part):
            continue
        zh_item = requests and re.search(r"[:：]", requests[-1]) and re.search(r"[\u4e00-\u9fff]", part) \
            and not _ZH_ACTION.search(part)
        if requests and (_QUALIFIER.match(raw.strip()) or zh_item):
            requests[-1] += ("；" if zh_item else "; ") + part
        else:
            requests.append(part)
    return requests if len(requests) > 1 else [text]
