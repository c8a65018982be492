"""``autodw chat FILE``: a prompt where a person gives instructions one after another (a session).

Each instruction runs with the agent's live step display, then its change summary is shown; ``:undo`` takes the
whole instruction back, ``:redo`` does it again. Ctrl-C during an instruction stops it and restores the document
to what it was when the instruction began. Lines typed are kept in a readline history file.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path
from typing import Any, Callable

from autodw.interfaces.editing import EditSession, default_output
from autodw.core.errors import AutodwError, ConfigError, LLMError
from autodw.interfaces.session_agent import AgentOptions, make_session_agent

HELP = """Type an instruction to carry it out, or a command:
  :undo           take back the last instruction      :redo          do it again
  :state [TOKENS] the document as the agent sees it   :diff          changes since the file was opened
  :show [PNG]     picture of the pages the last instruction changed, before and after (LibreOffice)
  :save [PATH]    write the document (default: -o OUT, else NAME-edited.docx)
  :redline PATH   write the document as opened with every edit since as Word tracked changes
  :quit           leave (asks before discarding unsaved changes)      :help          this text"""
HISTORY_LENGTH = 1000


class Chat:
    """The session's state and commands; :meth:`loop` reads lines from `read` (``input`` by default)."""

    def __init__(self, session: EditSession, agent_factory: Callable[[], Any], output: Path | None = None,
                 read: Callable[[str], str] = input, out=None):
        self.session = session
        self._agent_factory = agent_factory
        self._agent: Any = None
        self.output = output
        self.read = read
        self.out = out or sys.stdout
        self.result: Any = None  # one RunResult for the whole session: the planner sees the earlier instructions
        self._records: dict[int, Any] = {}  # edit version -> the instruction record it came from (for undo/redo)
        self.pictures = 0

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    # --- the loop --------------------------------------------------------------------------------

    def loop(self) -> int:
        """Read and carry out lines until :quit (or end of input); returns the exit status."""
        self.say(f"editing {self.session.doc.name}; type an instruction, or :help")
        while True:
            try:
                line = self.read(self._prompt()).strip()
            except EOFError:
                self.say("")
                line = ":quit"
            except KeyboardInterrupt:
                self.say("\n(:quit leaves)")
                continue
            if not line:
                continue
            try:
                if line.startswith(":"):
                    if self.command(line) == "quit":
                        return 0
                else:
                    self.instruct(line)
            except AutodwError as exc:
                self.say(f"error: {exc}")
            except KeyboardInterrupt:
                self.say("\ninterrupted")

    def _prompt(self) -> str:
        return f"{self.session.doc.name}{'*' if self.session.unsaved else ''}> "

    def command(self, line: str) -> str | None:
        """Run one ``:command``; returns "quit" when the session should end."""
        try:
            name, *rest = shlex.split(line[1:]) or [""]
        except ValueError as exc:
            raise ConfigError(f"cannot read the command: {exc}") from None
        handler = getattr(self, f"_cmd_{name}", None)
        if handler is None:
            raise ConfigError(f"unknown command :{name}; commands: :undo :redo :state :diff :show :save :redline :quit :help")
        return handler(*rest[:1])

    # --- instructions ----------------------------------------------------------------------------

    def instruct(self, instruction: str) -> None:
        """Carry out one instruction with the live step display, then show what it changed."""
        from autodw.agent.records import RunResult
        from autodw.analysis.change_summary import summarize_change
        from autodw.analysis.changes import analyze_change
        from autodw.analysis.state import extract_state

        if self._agent is None:
            self._agent = self._agent_factory()
        if self.result is None:
            self.result = RunResult()
        before = extract_state(self.session.doc)
        kept = len(self.result.instructions)
        try:
            _, edit = self.session.apply(instruction, lambda doc: self._agent.run(doc, [instruction], self.result))
        except KeyboardInterrupt:
            del self.result.instructions[kept:]
            self.say("\ninterrupted: the instruction was stopped and the document restored to what it was before it")
            return
        except LLMError as exc:
            del self.result.instructions[kept:]
            self.say(f"error: LLM failure: {exc}; the document was restored to what it was before the instruction")
            return
        if edit is None:
            self.say("No change: the document is as it was.")
            return
        self._records[edit.after_version] = self.result.instructions[-1]
        self.say("\nChanges:\n" + summarize_change(analyze_change(before, extract_state(self.session.doc))))
        self.say("(:undo takes this instruction back)")

    # --- commands --------------------------------------------------------------------------------

    def _cmd_help(self) -> None:
        self.say(HELP)

    def _cmd_undo(self) -> None:
        edit = self.session.undo()
        record = self._records.get(edit.after_version)
        if self.result is not None and record in self.result.instructions:
            self.result.instructions.remove(record)  # the planner no longer counts it as done
        self.say(f"undone: {edit.label}")

    def _cmd_redo(self) -> None:
        edit = self.session.redo()
        record = self._records.get(edit.after_version)
        if self.result is not None and record is not None:
            self.result.instructions.append(record)
        self.say(f"redone: {edit.label}")

    def _cmd_state(self, budget: str | None = None) -> None:
        from autodw.analysis.state import extract_state
        from autodw.analysis.state.render import render_state

        if budget is not None and not budget.isdigit():
            raise ConfigError(f":state takes a token budget (a number), not {budget!r}")
        self.say(render_state(extract_state(self.session.doc), budget_tokens=int(budget) if budget else None))

    def _cmd_diff(self) -> None:
        from autodw.analysis.change_summary import summarize_change

        self.say(summarize_change(self.session.changes_since_open()))

    def _cmd_show(self, path: str | None = None) -> None:
        from autodw.interfaces.render import before_after, save_picture

        edit = self.session.last_edit
        if edit is None:
            raise ConfigError("nothing to show: no instruction has changed the document yet")
        picture, pages = before_after(self.session.bytes_at(edit.before), self.session.doc.to_bytes())
        if picture is None:
            self.say("the last instruction changed nothing that shows on the pages")
            return
        self.pictures += 1
        base = self.output or default_output(self.session.doc.source or Path(self.session.doc.name))
        target = Path(path) if path else base.with_name(f"{base.stem}.show{self.pictures}.png")
        save_picture(picture, target)
        self.say(f"wrote {target}: page(s) {', '.join(map(str, pages))} before (left) and after (right)")

    def _cmd_save(self, path: str | None = None) -> None:
        target = Path(path) if path else self.output or default_output(self.session.doc.source or Path(self.session.doc.name))
        self.say(f"saved {self.session.save(target)}")

    def _cmd_redline(self, path: str | None = None) -> None:
        from autodw.interfaces.redline import write_session_redline

        if not path:
            raise ConfigError(":redline needs the path of the .docx to write")
        result = write_session_redline(self.session, path)
        self.say(f"saved {result.path} (the edits as tracked changes by {self.session.doc.author})")
        for note in result.check.notes():
            self.say(f"note: {note}")

    def _cmd_quit(self) -> str | None:
        if self.session.unsaved:
            try:
                answer = self.read("There are unsaved changes. Discard them and quit? [y/N] ").strip().lower()
            except EOFError:
                answer = "y"
                self.say("\n(end of input: unsaved changes discarded)")
            if answer not in ("y", "yes"):
                self.say("not quitting; :save [PATH] writes the document")
                return None
        if self._agent is not None:
            self._agent.close()
        return "quit"


def _history() -> Callable[[], None]:
    """Load the readline history (if readline exists here) and return the function that saves it."""
    try:
        import readline
    except ImportError:  # no readline (e.g. Windows): plain input()
        return lambda: None
    from autodw.core.paths import data_home

    path = data_home() / "chat_history"
    try:
        readline.read_history_file(path)
    except OSError:
        pass
    readline.set_history_length(HISTORY_LENGTH)

    def save() -> None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            readline.write_history_file(path)
        except OSError as exc:
            print(f"note: the history could not be saved: {exc}", file=sys.stderr)

    return save


def chat_command(args: argparse.Namespace) -> int:
    """``autodw chat FILE [-o OUT]``."""
    from autodw.core.document import WordDocument

    output = Path(args.output) if args.output else None
    if output is not None and output.exists() and output.resolve() == Path(args.file).resolve():
        raise ConfigError("refusing to overwrite the input file; choose another -o path")
    doc = WordDocument.open(args.file)
    doc.asset_roots = [Path(p) for p in args.assets]
    doc.author = args.author
    for note in doc.repairs:
        print(f"note: {note}", file=sys.stderr)
    options = AgentOptions.from_args(args)
    save_history = _history()
    try:
        return Chat(EditSession(doc), lambda: make_session_agent(options, console=True), output).loop()
    finally:
        save_history()
