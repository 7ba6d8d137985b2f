"""The CLI's process collects garbage seldom and skips the interpreter's last collection."""

from __future__ import annotations

import gc

import pytest

from graphrag_neo4j.cli import app as cli_app
from graphrag_neo4j.cli.collector import OLDER_EVERY, YOUNG_ALLOCATIONS
from graphrag_neo4j.runtime.errors import InputError


def _command(fails: bool) -> None:
    # What the command sees while it runs: the thresholds are already set, nothing is frozen.
    assert gc.get_threshold() == (YOUNG_ALLOCATIONS, OLDER_EVERY, OLDER_EVERY)
    assert gc.get_freeze_count() == 0
    if fails:
        raise InputError("data.txt is empty; add text to it.")


@pytest.mark.parametrize("fails", [False, True])
def test_main_collects_seldom_and_freezes_the_heap_when_the_command_ends(
    fails: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    gc.unfreeze()
    monkeypatch.setattr(cli_app, "app", lambda: _command(fails))
    monkeypatch.setattr(cli_app, "_register_subcommands", lambda invoked=None: None)
    if fails:
        with pytest.raises(SystemExit):
            cli_app.main()
    else:
        cli_app.main()
    assert gc.get_freeze_count() > 0  # the heap the command built is not walked again at exit
