"""How many of the hand-written track's dev turns make each kind of request (replace everywhere, table data in
the words, character formatting, heading levels, lengths and colours in people's units, header/footer text), by the
number of requests a turn makes; the counts of docs/benchmark/embedded-failures.md, section 5.

Usage: python scripts/hand_request_kinds.py   (dev only: the test split is held out and never read here)
"""
import collections
import json
import re
from pathlib import Path

HAND = Path(__file__).resolve().parent.parent / "autodw" / "dwbench" / "data" / "hand"
FILES = sorted(HAND.glob("dev-0[0-9].jsonl"))
assert FILES and not any("test" in f.name or "mini" in f.name for f in FILES)
rows = [json.loads(line) for f in FILES for line in f.open(encoding="utf-8") if line.strip()]


def gold(r): return [(g['api'], json.loads(g['args'])) for g in r['gold']]
EVERY = re.compile(r"\b(?:every|everywhere|all|throughout|each|both)\b|全文|所有|全部|都改|都要改|都标|两处|各处|每处|凡是", re.I)
def replace_everywhere(r):
    return any(a in ('replace_text', 'format_matches') and 'paragraphs' not in x for a, x in gold(r)) and bool(EVERY.search(r['instruction']))
def cells(x):
    d = x.get('data') or x.get('rows') or x.get('values') or ([x['text']] if 'text' in x else [])
    flat = []
    for v in (d if isinstance(d, list) else [d]):
        flat += v if isinstance(v, list) else [v]
    return [str(v) for v in flat if str(v).strip()]
def table_data(r):
    return any(a in ('insert_table', 'insert_row', 'fill_table', 'set_cell_text', 'insert_column')
               and any(v in r['instruction'] for v in cells(x)) for a, x in gold(r))
SUPSUB = re.compile(r"superscript|subscript|上标|下标|角标", re.I)
CHARFMT_API = ('set_text_format', 'format_matches', 'clear_text_format', 'change_case', 'copy_format')
def supsub(r): return bool(SUPSUB.search(r['instruction'])) or any('superscript' in x or 'subscript' in x for a, x in gold(r))
def charfmt(r): return any(a in CHARFMT_API for a, x in gold(r))
LEVEL = re.compile(r"heading\s*[1-9]|level[- ]?(?:[1-9]|one|two|three)|(?:top|second|third)[- ]level|sub-?heading|[一二三四五六1-6]级(?:标题)?|标题\s*[1-9]|正文|普通正文|plain text|normal text|body text", re.I)
def heading_level(r):
    return any(a == 'insert_heading' or (a == 'apply_style' and re.search(r'heading|title|normal', json.dumps(x), re.I)) for a, x in gold(r))
def level_in_words(r):
    return heading_level(r) and bool(re.search(r"heading\s*[1-9]|[一二三四五六1-6]级标题|标题\s*[1-9]|normal para|普通正文|\btitle\b", r['instruction'], re.I))
LENGTH = re.compile(r"\d+(?:\.\d+)?\s*(?:cm|mm|in\b|inch|inches|pt\b|point|厘米|公分|毫米|英寸|磅|个?字符|倍|(?<![月路街弄])号)|小?[一二三四五六初]号|字号小[一二三四五六]|小一号|大一号|half an inch|half its size|(?:bit|little) (?:bigger|smaller|wider|larger|narrower)|a bit too small|breathing room|加宽一点|调小点|调大点|大一点|小一点|宽一点|窄一点", re.I)
COLOUR = re.compile(r"\b(?:red|blue|green|grey|gray|yellow|orange|purple|black|white|navy|teal|maroon|pink|brown)\b|[红蓝绿灰黄橙紫黑白粉棕](?:色|字|底)|浅[红蓝绿灰黄紫]|深[红蓝绿灰黄紫]")  # English lower case only: not "Blue Door Café", "Arial Black"
def length(r):  # a day of a month (4月30号) or a house number (滨江路88号) is no size
    t = r['instruction']
    return any(not (m.group(0).endswith('号') and m.group(0)[:-1].strip().replace('.', '').isdigit()
                    and t[max(0, m.start() - 1):m.start()] in ('月', '路', '街', '弄')) for m in LENGTH.finditer(t))
def colour(r): return bool(COLOUR.search(r['instruction']))
def header_footer(r): return any(a == 'set_header_footer' for a, x in gold(r))
KINDS = [('replace or format everywhere (gold replace_text/format_matches without paragraphs, and "every/all/全文/所有/都/两处")', replace_everywhere),
         ('table data in the request (a cell value of insert_table/insert_row/fill_table/set_cell_text/insert_column is in the text)', table_data),
         ('superscript/subscript', supsub),
         ('other character formatting (gold set_text_format/format_matches/clear_text_format/change_case/copy_format)', charfmt),
         ('heading level (gold insert_heading, or apply_style to/from a heading)', heading_level),
         ('  of which the text names the level or style (Heading 1, 二级标题, 标题1, title, normal para)', level_in_words),
         ('a length or size in people\'s units (cm, pt, 磅, 厘米, 字符, 倍, 号, "a bit bigger"...)', length),
         ('a colour in words (red, light blue, 浅灰, 深蓝, 红字...)', colour),
         ('header/footer text edit (gold set_header_footer)', header_footer)]
print(len(rows), 'turns;', collections.Counter(r['requests'] for r in rows))
for name, f in KINDS:
    hit = [r for r in rows if f(r)]
    by = collections.Counter(r['requests'] for r in hit)
    print(f"\n## {name}: {len(hit)} turns; 1 request {by[1]}, 2 requests {by[2]}, more {sum(v for k, v in by.items() if k > 2)}")
    for r in hit[:50]:
        print(f"   {r['session_id']}#{r['turn']} ({r['requests']}) {r['instruction'][:150]} || {[a for a, _ in gold(r)]}")
VAGUE = re.compile(r"(?:bit|little) (?:bigger|smaller|wider|larger|narrower)|a bit too small|breathing room|half its size|加宽一点|调小点|调大点|大一点|小一点|宽一点|窄一点|小一号|大一号", re.I)
UNNAMEABLE = re.compile(r"light blue|light green|pale yellow|light yellow|浅蓝|浅绿|浅黄|淡蓝|淡绿|淡黄", re.I)
for name, f in (("  of which only vague (a bit bigger, 小一号, half its size)", lambda r: length(r) and VAGUE.search(r['instruction']) and not re.search(r"\d\s*(?:cm|pt|磅|厘米|字符|倍|号|inch)", r['instruction'])),
                ("  colours the APIs cannot name (light blue/green, pale yellow; 25 names, no tints)", lambda r: bool(UNNAMEABLE.search(r['instruction'])))):
    hit = [r for r in rows if f(r)]
    by = collections.Counter(r['requests'] for r in hit)
    print(f"\n## {name}: {len(hit)} turns; 1 request {by[1]}, 2 requests {by[2]}")
    for r in hit: print(f"   {r['session_id']}#{r['turn']} ({r['requests']}) {r['instruction'][:120]}")
