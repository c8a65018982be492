"""Runs the real ``autodw`` command line with a scripted LLM and a fixed intent classifier, so that the
pseudo-terminal tests of ``autodw chat`` need no model.

    python -m tests.chat_driver SCRIPT.json chat FILE [-o OUT] --llm scripted

SCRIPT.json maps each role to its answers in order; the answer "__wait__" blocks (until Ctrl-C).
"""

from __future__ import annotations

import json
import sys
import time

from autodw.intents import classifier
from autodw.llm import factory
from autodw.llm.scripted import ScriptedBackend
from tests.test_agent import FixedClassifier


def _answer(answer):
    if answer != "__wait__":
        return answer

    def wait(messages):
        time.sleep(300)
        raise SystemExit("chat_driver: nobody pressed Ctrl-C")

    return wait


def main() -> int:
    with open(sys.argv[1], encoding="utf-8") as fh:
        script = {role: [_answer(a) for a in answers] for role, answers in json.load(fh).items()}
    backend = ScriptedBackend(script)
    real = factory.make_llm
    factory.make_llm = lambda spec=None, **kw: backend if spec == "scripted" else real(spec, **kw)
    classifier.load_or_train = lambda progress=True: FixedClassifier()
    from autodw.interfaces.cli import main as cli_main

    return cli_main(sys.argv[2:])


if __name__ == "__main__":
    sys.exit(main())
