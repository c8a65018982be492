"""Progress suits where it is written: a bar on a terminal, a few plain lines in a file or a CI log."""

from __future__ import annotations

import io

from autodw.core.progress import LogProgress, progress


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_a_long_loop_written_to_a_file_writes_a_line_per_5_percent():
    out = io.StringIO()  # not a terminal: a redirected log
    items = list(range(10_000))
    assert sum(progress(items, "judging", file=out, unit="output")) == sum(items)
    lines = out.getvalue().splitlines()
    assert 20 <= len(lines) <= 22, lines  # the start, every 5%, the end: not one line per item
    assert lines[0] == "judging: 0/10000 output (0%), 0:00 elapsed"
    assert lines[-1].startswith("judging: 10000/10000 output (100%)")
    assert "\r" not in out.getvalue()


def test_a_slow_loop_writes_a_line_per_minute_with_what_is_left():
    out, clock = io.StringIO(), Clock()
    bar = progress(desc="instructions", total=1000, initial=100, file=out, unit="instruction", clock=clock)
    for k in range(1, 11):  # 1% every 30 s: the minute comes before the 5%
        clock.now += 30
        bar.update(10)
        bar.set_postfix_str(f"iACC {k}/{10 * k}")  # after the update, as the runner does: the line shows it
    bar.close()
    lines = out.getvalue().splitlines()
    assert len(lines) == 6  # the start and one a minute
    assert lines[1] == "instructions: 120/1000 instruction (12%), 1:00 elapsed, ~44:00 left, iACC 2/20"


def test_without_a_total_lines_come_a_minute_apart():
    out, clock = io.StringIO(), Clock()
    with progress(desc="validating", file=out, unit="session", clock=clock) as bar:
        for _ in range(300):
            clock.now += 1
            bar.update()
    assert out.getvalue().splitlines() == ["validating: 0 session, 0:00 elapsed"] + [
        f"validating: {60 * k} session, {k}:00 elapsed" for k in range(1, 6)]


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_a_terminal_gets_a_bar_and_ci_gets_lines(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    bar = progress(desc="x", total=3, file=Terminal())
    assert not isinstance(bar, LogProgress)
    bar.close()
    monkeypatch.setenv("CI", "true")
    assert isinstance(progress(desc="x", total=3, file=Terminal()), LogProgress)
    assert not isinstance(progress(desc="x", total=3, file=io.StringIO(), disable=True), LogProgress)  # silent


def test_a_run_written_to_a_log_writes_a_bounded_number_of_progress_lines(tmp_path, monkeypatch, capsys):
    from autodw.eval import runner as runner_module
    from autodw.eval.runner import Runner, RunSpec
    from autodw.eval.systems import OracleSystem
    from autodw.eval.work import Work

    done = []
    monkeypatch.setattr(Work, "instruction", lambda self, unit: done.append(unit) or True)  # no real work: only the bar
    monkeypatch.setattr(runner_module, "summarize", lambda *a, **k: {"iacc": None})
    Runner(RunSpec("oracle", "none", "mini", ["instruction"], {}), tmp_path / "run", OracleSystem,
           word_check=False).run()  # stderr is captured: no terminal, as in a redirected run or a CI log
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith("oracle templated/mini instructions")]
    assert "\r" not in err  # no bar redrawn in a log
    assert len(done) > 40  # every instruction of mini: more than a line per 5% would allow
    assert 3 <= len(lines) <= 22, lines  # the start, one per 5% (or a minute), the end: not one per instruction
    assert lines[-1].startswith(f"oracle templated/mini instructions: {len(done)}/{len(done)} instruction (100%)")
