"""The requests of a compound instruction, split by punctuation and connectives, so a small planner handles one at a
time ("A few changes: centre the title; make the Budget heading green. Then add a page break before ...").

Boundaries, outside quotes and brackets only: a full-width semicolon or full stop (Chinese); a Chinese comma followed
by a connective (然后, 接着, 另外, 此外, 同时, 最后, 再), or a connective right after a closing quote; a closing quote after a
sentence end and before a capital ('... "on Monday." Then ...'); an ASCII semicolon followed by a lower-case word ("; add a
section", but not the data list "Draft, Sam, Done; Review, Kim, Open"); ", then" before a word that is not an
article or number (", then insert ...", but not ", then a table with ..." that describes the same request's
content); a sentence end followed by a capital letter, or by a lower-case "and", "also" or "then" before an action
verb with an object (". and make the top row bold"). Mid-sentence: ", and also" or ", also" before an action
verb; " and then" before one; "and" before an action verb with an object of its own (", and add a row", "... and
make it smaller", but not "centre and bold the title", one verb's two words); in Chinese a "，" before a clause
with its own subject and 也 ("，页眉也跟着改") or "V完" ("，改完把批注删掉": after that).
A lead-in ("A few changes:", "Several edits, please.", "有几处要改：") and closing courtesies ("谢谢", "thanks") are
dropped; connectives that start a request are removed. A clause that qualifies the request before it ("; no password
needed", "; rows Draft, Sam, Done", "。作者写 Hao") or a Chinese list item after "：" (no action word) stays with that
request. A part
that only states context ("The chart is tiny.", "提示字的颜色太浅了") stays with the request after it, or with the one
before when it follows a semicolon, opens with a pronoun ("It only repeats ...", "这段...") or ends the instruction.
A part makes a request when a clause of it starts with an action verb, it opens like an imperative, starts with
"and/also/can/could", or asks ("can you", "please", "I'd like", "let's", "should", "needs to"); in Chinese when it
has an action word, 请/帮/麻烦 or a "：". An instruction without boundaries is one request.
"""

from __future__ import annotations

import re

#: opening mark -> closing mark of the spans a boundary cannot fall inside
_PAIRS = {"“": "”", "「": "」", "『": "』", "（": "）", "(": ")", "[": "]", "《": "》", '"': '"'}
_QUOTE_ENDS = {"”", "」", "』", '"'}
_ZH_CONNECTIVES = "然后|接着|另外|此外|同时|最后|再"  # after "，" they begin another request
_ZH_CONNECTIVE = re.compile(f"(?:{_ZH_CONNECTIVES})")
_AFTER_QUOTE = re.compile(r"(?:然后|接着|另外|此外)")  # right after a closing quote (“...。”接着...); not 再/最后/同时
#: 最后 before a numeral or demonstrative is "the last" (最后一段, 最后那段), no connective
_LEAD_CONNECTIVE = re.compile(rf"^(?:(?:{_ZH_CONNECTIVES}|还有)(?!(?<=最后)[一二两三几那这个段行页项条张列的\d])[，,]?|"
                              r"(?:and then|then|and|also|finally|"
                              r"first|next|lastly|after that)\b[,]?\s*)", re.IGNORECASE)
_LEAD_IN = re.compile(r"^[^“”\"「」:：]{0,40}[:：]\s*(?=\S)")  # "A few changes:" before the first request
_LEAD_IN_WORDS = re.compile(r"\b(?:changes|edits|fixes|things|updates)\b|几(?:处|个地方|点)", re.IGNORECASE)
_COURTESY = re.compile(r"^(?:谢谢|多谢|麻烦了|辛苦了|thanks|thank you|please|cheers)[!.。！ ]*$", re.IGNORECASE)
_LEAD_IN_SENTENCE = re.compile(r"^(?:(?:several|a few|some|a couple of|two|three|four|five) (?:edits|changes|things|fixes)"
                               r"|(?:有|改)?几(?:处|个地方)要?改)[,， ]*(?:please|请)?[.!。！]*$", re.IGNORECASE)
#: a clause that qualifies the request before it ("; no password needed", "; rows Draft, Sam, Done")
_QUALIFIER = re.compile(r"^(?:no|not|leave|leaving|without|keep|keeping|but|except|only|so|which|with|rows?|columns?|"
                        r"data)\b", re.IGNORECASE)
#: a Chinese clause that says who signs the text the request before it dictates ("…加条批注：…。作者写 Hao"); not a
#: change of the author ("作者改成张三": the document's properties)
_ZH_QUALIFIER = re.compile(r"^(?:作者|署名|批注人|审阅人|落款)(?:写|填|署|用|[:：])")
_DICTATES = re.compile(r"[:：“「『\"]")  # a request that dictates a text (after a colon or in quotes)
#: a Chinese clause without one of these is an item of a list the request before it opened with "："
_ZH_ACTION = re.compile(r"把|将|在|给|为|设|改|加|删|插|换|用|让|调|移|挪|复制|创建|新增|新建|应用|套用|取消|更新|刷新|居中|"
                        r"标|做|放|写|开启|打开|关闭|启用|保护|断开|拆|合并|缩进|对齐|排|替换|添加|定义")
_ABBREVIATIONS = ("e.g", "i.e", "etc", "mr", "mrs", "ms", "dr", "no", "fig", "vs", "st")
#: English verbs that start a request ("Make it wider", "..., so just delete that placeholder"); no noun-like verbs
#: (name, date, title, note, number, list) that also open a statement ("Number 3 is wrong")
_EN_ACTION = (r"add|put|insert|make|move|delete|remove|change|set|replace|fix|update|reword|rewrite|rename|bold|"
              r"italici[sz]e|underline|cent(?:re|er)|align|left-align|right-align|justify|shrink|resize|enlarge|widen|"
              r"shorten|swap|undo|give|use|apply|turn|get|take|drop|cut|highlight|format|fill|refresh|split|merge|sort|"
              r"write|call|tidy|clean|restore|reject|accept|convert|indent|increase|reduce|copy|paste|attach|create|"
              r"include|append|bump|double|halve|wrap|rotate|crop|link|translate|capitali[sz]e|shade|promote|demote|"
              r"keep|leave|switch|combine|join|clear|erase|trim|tighten|shift|pull|push|send|bring|place|fit|scale|"
              r"stretch|correct|edit|revise|adjust|tweak|modify|amend|simplify|mark|protect|lock|hide|show|type|"
              r"spell|end|finish|start|begin|repeat|draw|restrict|caption|divide|colou?r|throw|lose|do|redo")
_EN_FILLER = (r"(?:(?:now|just|also|then|and|so|please|oh|ok|okay|actually|finally|lastly|first|next|simply|kindly|"
              r"only)\b,?\s*)*")
#: a place before the verb ("at the end of p7 insert a cross-reference"), and the start of the object after it
_EN_PLACE = r"(?:at|in|on|under|after|before|below|above|within|inside|near|next to|right after|just (?:above|below))\s"
_EN_OBJECT = r"(?:it|them|its|their|the|a|an|this|that|these|those|all|every|each|both|some|one|another|[\"“'])"
#: a clause that starts with an action verb: at the start of a part or after a comma, dash, colon or "so/and/but"; not
#: one before "of", a noun ("Change of plans, ...")
_EN_CLAUSE_ACTION = re.compile(rf"(?:^|[,;:–—]\s*|\s-\s+|\b(?:so|and|but|then)\s+){_EN_FILLER}(?:{_EN_ACTION})\b(?!\s+of\b)"
                               rf"|^{_EN_FILLER}{_EN_PLACE}[^,]*?\s(?:{_EN_ACTION})\s+{_EN_OBJECT}", re.IGNORECASE)
#: a part that opens like an imperative whose verb is not listed: a word that is no function word, then an object
#: ("Bookmark the heading", "Hyphenate all of it"; not "With the logo on top", "Tom has a point")
_EN_FUNCTION = (r"with|in|on|at|under|over|for|from|of|by|about|as|since|because|when|if|after|before|like|than|into|"
                r"to|all|both|only|just|even|still|is|are|was|were|has|have|had|does|did|not|but|or|there|here|it|this|"
                r"that|these|those|the|a|an|i|we|you|he|she|they|my|our|your|his|her|their|its|some|any|every|each|"
                r"what|which|who|how|why|where|too|maybe|perhaps|yes|no|well|sorry|thanks|per|via|between|across|"
                r"through|around|near|below|above|except|without|within|during|until|against|behind|inside|outside|"
                r"despite")
_EN_IMPERATIVE = re.compile(rf"^{_EN_FILLER}(?!(?:{_EN_FUNCTION})\b)[a-z]+(?<!ly)\s+{_EN_OBJECT}\s", re.IGNORECASE)
#: words that ask for something anywhere in a part
_EN_ASKS = re.compile(r"^(?:oh,? )?(?:and|also|plus|can|could|would|will)\b|\b(?:can|could|would|will) you\b|"
                      r"\bplease\b|\b(?:I|we)(?:'d| would)? (?:like|want)\b|\blet'?s\b|\bshould\b|\bneeds? to\b",
                      re.IGNORECASE)
#: Chinese words that ask for something beyond the action words of a list item (_ZH_ACTION), and a "：" that spells a
#: setting out ("首页不同：第一页不显示页眉")
_ZH_ASKS = re.compile(r"请|帮|麻烦|接受|拒绝|撤销|恢复|还原|精简|靠[左右]|去掉|去除|清除|填|统一|突出|高亮|放大|缩小|限制|排序|：")
#: Chinese words that hold an action character (标, 在, 为, 用, 写...) but ask nothing: masked before _ZH_ACTION is read
_ZH_NOT_ACTION = re.compile(r"标题|标准|目标|正在|现在|存在|在于|因为|为什么|认为|作为|成为|以为|用户|有用|没用|费用|写着|写的")
#: a context part that opens with one of these is about the request before it ("It only repeats the first one.")
_BACK_REFERENCE = re.compile(r"(?:(?:it|its|it's|they|they're|them|that|that's|this|these|those)\b|[它这那])",
                             re.IGNORECASE)
_CJK = re.compile(r"[\u4e00-\u9fff]")
#: ", and also add", ", also add", " and then add", ", and add a row", " and make it ...": another request mid-sentence
#: (an action verb with an object of its own after "and"; not "and then converted", "and all four margins to 3 cm")
_EN_MID = re.compile(rf"(?:(?:,\s+|,?\s+and\s+)also\s+(?:{_EN_ACTION})\s+{_EN_OBJECT}"
                     rf"|\s+and\s+then\s+(?:{_EN_ACTION})\b"
                     rf"|,\s+and\s+(?:{_EN_ACTION})\s+{_EN_OBJECT}"
                     rf"|\s+and\s+(?:{_EN_ACTION})\s+(?:it|them|its|their|the|this|that|these|those)\b)", re.IGNORECASE)
#: after "，": a clause with its own subject and 也 (页眉也跟着改) or "V完" (改完把…, after that), before an action word of
#: that clause
_ZH_MID = re.compile(rf"(?:[^，。；“”也但]{{1,6}}也|[\u4e00-\u9fff]{{1,2}}完(?:之?后|以后)?)"
                     rf"(?=[^，。；]*(?:{_ZH_ACTION.pattern}))")
#: a sentence typed in lower case that opens a request with a connective and an action verb with its object (". and
#: make the top row bold", ". also add a row")
_EN_LOWER_START = re.compile(rf"\s+(?:and\s+(?:then\s+)?|also\s+|then\s+)(?:{_EN_ACTION})\s+{_EN_OBJECT}")
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
            elif ch == "，" and _ZH_MID.match(rest):
                found.append((i, i + 1))
            elif ch in ", " and not (ch == " " and text[i - 1:i] == ",") and _EN_MID.match(text[i:]) \
                    and len(re.split(r"[.,;:!?]", text[:i])[-1].split()) >= 2:
                found.append((i, i + 1))
            elif ch == ";" and re.match(r"\s+[a-z]", rest):
                found.append((i, i + 1))
            elif ch in ".?!" and (re.match(r"\s+[A-Z\u4e00-\u9fff“\"]", rest) or _EN_LOWER_START.match(rest)) \
                    and not _abbreviation(text[:i]):
                found.append((i, i + 1))
    return found


def _abbreviation(before: str) -> bool:
    word = re.search(r"([A-Za-z.]+)$", before)
    return bool(word) and word.group(1).lower().rstrip(".") in _ABBREVIATIONS


def _clean(part: str) -> str:
    part = re.sub(r"\s[-–—]$", "", _TRAILING_COURTESY.sub("", part.strip())).strip("；;，,").strip()  # "... -, and put"
    previous = None
    while previous != part:
        previous, part = part, _LEAD_CONNECTIVE.sub("", part).strip()
    return part


def _asks(part: str) -> bool:
    """Whether `part` makes a request (not only states context: "The chart is tiny", "提示字的颜色太浅了")."""
    if _CJK.search(part):
        return bool(_ZH_ACTION.search(_ZH_NOT_ACTION.sub("", part)) or _ZH_ASKS.search(part))
    return bool(_EN_CLAUSE_ACTION.search(part) or _EN_ASKS.search(part) or _EN_IMPERATIVE.match(part))


def split(instruction: str) -> list[str]:
    """The requests `instruction` makes, in order (the whole instruction when it makes one)."""
    text = instruction.strip()
    lead = _LEAD_IN.match(text)
    body = text[lead.end():] if lead and _LEAD_IN_WORDS.search(lead.group(0)) else text
    parts, seps, start = [], [""], 0  # seps[k]: the separator before parts[k], as the text has it
    for b_start, b_end in _boundaries(body):
        parts.append(body[start:b_start])
        seps.append(body[b_start:b_end] + (" " if body[b_end:b_end + 1].isspace() else ""))
        start = b_end
    parts.append(body[start:])
    requests: list[str] = []
    context, context_before = "", ""  # parts that state context, with the separators after them and before the first
    for raw, part, before, after in zip(parts, map(_clean, parts), seps, seps[1:] + [""]):
        if _COURTESY.match(part) or (not requests and not context and _LEAD_IN_SENTENCE.match(part)):
            continue
        if len(part) < MIN_REQUEST_CHARS and not re.search(r"[\u4e00-\u9fff]{2}", part):
            continue
        zh_item = requests and re.search(r"[:：]", requests[-1]) and re.search(r"[\u4e00-\u9fff]", part) \
            and not _ZH_ACTION.search(_ZH_NOT_ACTION.sub("", part))  # "；标题填…": 标题 asks nothing
        zh_item = zh_item or requests and _ZH_QUALIFIER.match(part) and _DICTATES.search(requests[-1])
        if requests and not context and (_QUALIFIER.match(raw.strip()) or zh_item):
            requests[-1] += ("；" if zh_item else "; ") + part
        elif _asks(raw.strip()):
            requests.append(context + part)  # "The chart is tiny. Make it wider."
            context = ""
        elif requests and not context and (before.strip() in (";", "；") or _BACK_REFERENCE.match(part)):
            requests[-1] += before + part  # "...；下一行“张伟”，各占一段", "... It only repeats the first.": about that one
        else:
            context, context_before = context + part + after, context_before if context else before
    if context and requests:  # after the last request: it qualifies that one ("Delete the copies. They are junk.")
        requests[-1] += context_before + context.rstrip()
    return requests if len(requests) > 1 else [text]
