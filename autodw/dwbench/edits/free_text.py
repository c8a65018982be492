"""Templates whose wording is left to the agent (a summary, a comment): graded on where and what kind, not the words."""

from __future__ import annotations

from autodw.dwbench.context import Ctx
from autodw.dwbench.edits.helpers import named, pick_body
from autodw.dwbench.edits.template import template


@template("text", weight=0.35)
def free_summary(c: Ctx) -> str:
    p, ref = named(c, pick_body(c, 40))
    text = {"en": "In short: the main points above still apply and will be reviewed next quarter.",
            "zh": "简而言之：以上要点继续有效，下季度将再次复核。"}[c.dl]
    c.memory["para"] = c.run("insert_paragraph", text=text, position={"after": p["id"]}).created[0]
    c.free_text = True
    return c.say([f"add a one-sentence summary of your own after {ref}", f"write a short one-line summary (your words) right after {ref}",
                  f"after {ref}, sum it up in one sentence of your own"],
                 [f"在{ref}后面自己写一句总结", f"{ref}后面加一句你自己概括的小结", f"用一句话总结{ref}，放在它后面（措辞你定）"])


@template("text", weight=0.3)
def free_comment(c: Ctx) -> str:
    p, ref = named(c, pick_body(c, 30))
    text = {"en": "This claim needs a supporting source.", "zh": "此处需要补充数据来源。"}[c.dl]
    c.run("insert_comment", paragraph=p["id"], text=text)
    c.free_text = True
    return c.say([f"add a comment on {ref} asking for evidence (your wording)", f"leave a comment on {ref} asking the author to back it up, in your own words",
                  f"comment on {ref}: ask for a source (word it as you like)"],
                 [f"在{ref}上加一条批注，请作者补充依据（措辞你定）", f"给{ref}加批注，请作者提供依据，怎么写你决定", f"在{ref}旁批注一下，要求补充来源（自己措辞）"])
