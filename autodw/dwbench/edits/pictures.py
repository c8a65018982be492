"""Templates that add, resize, replace, place, describe, crop and delete pictures."""

from __future__ import annotations

from autodw.dwbench.context import Ctx, Skip
from autodw.dwbench.edits.helpers import created_id, named, place, prefer, q
from autodw.dwbench.edits.template import template


@template("visual", weight=1.2)
def add_picture(c: Ctx) -> str:
    where, pos = place(c)
    name = c.pick(["logo.png", "photo.png", "diagram.png", "map.png"])
    width = c.rng.choice(["5cm", "8cm", "6cm"])
    alt = {"logo.png": ("Company logo", "公司标志"), "photo.png": ("Photo of the team", "团队合影"), "diagram.png": ("Process diagram", "流程示意图"),
           "map.png": ("Map of the sites", "站点分布图")}[name]
    alt = alt[0] if c.dl == "en" else alt[1]
    with_alt = c.rng.random() < 0.5
    args = dict(path=name, position=pos, width=width, alignment="center")
    if with_alt:
        args["alt_text"] = alt
    res = c.run("insert_image", **args)
    c.memory["image"] = created_id(res, "img")
    tail_en = f" with the alt text {q(c, alt)}" if with_alt else ""
    tail_zh = f"，替代文字写“{alt}”" if with_alt else ""
    return c.say([f"insert the picture {name} {where}, {width.replace('cm', ' cm')} wide and centred{tail_en}",
                  f"{where}, add the image {name} at {width.replace('cm', ' cm')} width, centred{tail_en}",
                  f"put {name} {where}; make it {width.replace('cm', ' cm')} wide and centre it{tail_en}"],
                 [f"{where}插入图片 {name}，宽{width.replace('cm', '厘米')}，居中{tail_zh}", f"{where}放一张图 {name}，宽度{width.replace('cm', '厘米')}，居中显示{tail_zh}",
                  f"把 {name} 插到{where.removeprefix('在')}，宽{width.replace('cm', '厘米')}，居中{tail_zh}"])


@template("visual", weight=0.8)
def resize_picture(c: Ctx) -> str:
    img, ref = named(c, prefer(c, c.images(), "image"))
    if img["id"] in c.fresh:  # inserted at one size by this instruction: resizing or cropping it now is an order trap
        raise Skip("picture made by this instruction")
    if c.rng.random() < 0.5:
        w = c.pick([x for x in ("4cm", "7cm", "10cm") if abs(float(x[:-2]) - img["width_cm"]) > 0.5])
        c.run("resize_image", image=img["id"], width=w)
        return c.say([f"resize {ref} to {w.replace('cm', ' cm')} wide, keeping its proportions", f"set the width of {ref} to {w.replace('cm', ' cm')} (keep the aspect ratio)",
                  f"{ref} should be {w.replace('cm', ' cm')} across, scaled proportionally"],
                 [f"把{ref}宽度改为{w.replace('cm', '厘米')}，保持比例", f"{ref}宽度设为{w.replace('cm', '厘米')}，锁定纵横比", f"{ref}等比例缩放到宽{w.replace('cm', '厘米')}"])
    s = c.rng.choice([50, 150])
    c.run("resize_image", image=img["id"], scale=s)
    return c.say([f"make {ref} {'half its size' if s == 50 else '50% bigger'}", f"scale {ref} to {s}%",
                  f"{ref} is {'too big: shrink it to half' if s == 50 else 'too small: enlarge it by half again'}"],
                 [f"把{ref}{'缩小一半' if s == 50 else '放大到原来的1.5倍'}", f"{ref}缩放到{s}%", f"{ref}{'太大了，缩成原来的一半' if s == 50 else '太小了，放大50%'}"])


@template("visual", weight=0.5, undoing=True)
def replace_picture(c: Ctx) -> str:
    img, ref = named(c, prefer(c, c.images(), "image"))
    name = c.pick([n for n in ("logo.png", "photo.png", "diagram.png", "map.png") if n != img.get("file")])
    c.run("replace_image", image=img["id"], path=name)
    return c.say([f"swap {ref} for {name}, keeping the same size", f"replace {ref} with the file {name} at the same size",
                  f"use {name} instead of {ref}; the size should stay as it is"],
                 [f"把{ref}换成 {name}，大小不变", f"用 {name} 替换{ref}，尺寸保持不变", f"{ref}改用 {name} 这张图，大小照旧"])


@template("visual", weight=0.5, undoing=True)
def delete_picture(c: Ctx) -> str:
    img, ref = named(c, prefer(c, c.images(), "image"))
    c.run("delete_image", image=img["id"])  # the paragraph stays, as in Word: the words do not ask to remove it
    c.memory.pop("image", None)
    return c.say([f"delete {ref}", f"take out {ref}", f"{ref} isn't needed, please remove it"], [f"删除{ref}", f"把{ref}去掉", f"{ref}用不上，删掉吧"])


@template("visual", weight=0.6)
def align_picture(c: Ctx) -> str:
    img = c.pick([i for i in c.images() if i.get("placement") == "inline"])
    ref = c.ref_image(img)
    a = c.rng.choice(["left", "right"])
    c.run("set_image_alignment", image=img["id"], alignment=a)
    return c.say([f"align {ref} to the {a}", f"move {ref} over to the {a} margin", f"{ref} should sit on the {a} side of the page"],
                 [f"{ref}{'左' if a == 'left' else '右'}对齐", f"把{ref}靠{'左' if a == 'left' else '右'}放", f"{ref}改成{'左' if a == 'left' else '右'}对齐"])


@template("visual", weight=0.6)
def wrap_picture(c: Ctx) -> str:
    img, ref = named(c, prefer(c, c.images(), "image"))
    wrap, side = c.rng.choice([("square", "right"), ("tight", "left"), ("top_bottom", "center")])
    c.run("set_image_wrap", image=img["id"], wrap=wrap, horizontal=side)
    en = {"square": "square text wrapping", "tight": "tight wrapping", "top_bottom": "top-and-bottom wrapping"}[wrap]
    zh = {"square": "四周型环绕", "tight": "紧密型环绕", "top_bottom": "上下型环绕"}[wrap]
    side_zh = {"right": "靠右", "left": "靠左", "center": "居中"}[side]
    return c.say([f"give {ref} {en} and place it on the {side}" if side != "center" else f"set {ref} to {en}, centred",
                  f"change the wrapping of {ref} to {en}, positioned {'centred' if side == 'center' else 'on the ' + side}",
                  f"let the text flow around {ref} with {en} ({'centred' if side == 'center' else side + ' side'})"],
                 [f"{ref}设为{zh}，{side_zh}", f"{ref}的文字环绕方式改为{zh}，位置{side_zh}", f"把{ref}设置成{zh}并{side_zh}摆放"])


@template("visual", weight=0.6)
def alt_text(c: Ctx) -> str:
    img, ref = named(c, prefer(c, c.images(), "image"))
    text = c.pick(["Photo of the main office", "Diagram of the process", "Illustration for this section"] if c.dl == "en" else ["办公楼照片", "流程示意图", "本节配图"])
    c.run("set_image_alt_text", image=img["id"], alt_text=text)
    return c.say([f"set the alt text of {ref} to {q(c, text)}", f"give {ref} the alternative text {q(c, text)} for screen readers",
                  f"{ref} has no useful description; its alt text should be {q(c, text)}"],
                 [f"给{ref}设置替代文字“{text}”", f"{ref}的可选文字改成“{text}”", f"为方便读屏软件，给{ref}加替代文字“{text}”"])


@template("visual", weight=0.5)
def crop_picture(c: Ctx) -> str:
    img, ref = named(c, prefer(c, c.images(), "image"))
    if img["id"] in c.fresh:  # inserted at one size by this instruction: resizing or cropping it now is an order trap
        raise Skip("picture made by this instruction")
    v = c.rng.choice([10, 15, 20])
    c.run("crop_image", image=img["id"], left=v, right=v)
    return c.say([f"crop {v}% off the left and right edges of {ref}", f"trim {ref} by {v}% on each side (left and right)",
                  f"cut {v}% from both the left and the right of {ref}"],
                 [f"把{ref}左右两边各裁掉{v}%", f"{ref}左右各裁剪{v}%", f"裁剪{ref}：左边和右边各去掉{v}%"])
