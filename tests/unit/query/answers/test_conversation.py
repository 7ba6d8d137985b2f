"""Conversations without a TTY: history reaches the prompts, /method switches, files of turns."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from graphrag_neo4j.database.workspaces.names import Workspace
from graphrag_neo4j.query.answers.conversation import Conversation, Turn, read_history, run_chat
from graphrag_neo4j.query.answers.run import run_query
from graphrag_neo4j.query.base import Answer, make_query
from graphrag_neo4j.query.registry import create_method
from graphrag_neo4j.runtime.errors import InputError
from graphrag_neo4j.settings import Settings
from tests.unit.query.fakes import WRITTEN_LEVEL, FakeServices, fake_services
from tests.unit.query.test_methods import PASSAGES, REPORTS


@dataclass
class Recorder:
    """A ChatOutput that keeps what was written."""

    answers: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)

    def answer_text(self, piece: str) -> None:
        self.answers.append(piece)

    def notice(self, text: str) -> None:
        self.notices.append(text)


def asker(services: FakeServices) -> Callable[..., Answer]:
    def ask(question: str, method: str, history: tuple[Turn, ...],
            sink: Callable[[str], None]) -> Answer:
        query = make_query(services.settings, question, history=history, on_token=sink, level=1)
        return asyncio.run(run_query(services, create_method(method, services), query))

    return ask


def chat_services(tmp: Path) -> FakeServices:
    map_reply = json.dumps({"points": [{"description": "He went to Berlin", "score": 70}]})
    return fake_services(
        {
            "query/search/search_chunks_by_vector": PASSAGES,
            "query/search/search_chunks_by_fulltext": [],
            "query/communities/community_levels": [{"level": 1, "communities": 2}],
            "query/communities/community_reports_at_level": REPORTS,
            "query/communities/community_level_status": WRITTEN_LEVEL,
        },
        [
            ("similarity search found", "Johann taught Euler [Data: Sources (1)]."),
            ("community\nreports", map_reply),
            ("Several analysts", "He moved to Berlin."),
        ],
        tmp,
    )


def test_history_reaches_the_next_prompt_and_method_switches(tmp_path: Path) -> None:
    services = chat_services(tmp_path)
    conversation = Conversation(asker(services), method="naive")
    lines = io.StringIO("Who taught Euler?\n\n/method global\nWhere did he go then?\n"
                        "/context\n/evidence\n")
    out = Recorder()
    assert run_chat(conversation, lines, out) == 2
    first, map_call, reduce_call = services.chat.calls
    assert "Conversation so far" not in first.prompt
    for later in (map_call, reduce_call):
        assert "user: Who taught Euler?" in later.prompt
        assert "assistant: Johann taught Euler [Data: Sources (1)]." in later.prompt
    assert conversation.last is not None and conversation.last.method == "global"
    # The reduce reply cited nothing: the streamed answer ends with its points' reports.
    assert "".join(out.answers) == ("Johann taught Euler [Data: Sources (1)].\n"
                                    "He moved to Berlin. [Data: Reports (1, 2)]\n")
    assert any(n.startswith("Method: global") for n in out.notices)
    assert any("Importance: 70" in n for n in out.notices)  # /context of the global answer
    assert any(":param community_ids" in n for n in out.notices)  # /evidence
    assert len(conversation.history) == 4


def test_commands_and_mistakes_are_answered_and_the_chat_goes_on(tmp_path: Path) -> None:
    conversation = Conversation(asker(chat_services(tmp_path)))
    out = Recorder()
    run_chat(conversation, io.StringIO("/context\n/method nope\n/wat\n/method\n"), out)
    assert out.notices[0] == "Nothing asked yet: ask a question first."
    assert out.notices[1].startswith("Error: Unknown method 'nope': use one of local, global")
    assert out.notices[2].startswith("Unknown command /wat.")
    assert out.notices[3].startswith("Method: local (registered: local, global, hops, ppr, naive,")
    assert conversation.method == "local"


def test_history_is_trimmed_to_its_token_budget_newest_kept() -> None:
    turns = [("user", "first " * 50), ("assistant", "second " * 50), ("user", "third")]
    query = make_query(Settings(), "And?", history=turns, history_tokens=60)
    assert [role for role, _ in query.history] == ["assistant", "user"]
    cut = make_query(Settings(), "And?", history=[("user", "long " * 500)], history_tokens=20)
    assert len(cut.history) == 1 and 0 < len(cut.history[0][1]) < 200
    assert make_query(Settings(), "And?", history=turns, history_tokens=0).history == ()


def test_history_files_in_both_shapes(tmp_path: Path) -> None:
    openai_style = tmp_path / "chat.json"
    openai_style.write_text(json.dumps([{"role": "user", "content": "Who?"},
                                        {"role": "assistant", "content": "Euler."}]))
    pairs = tmp_path / "pairs.json"
    pairs.write_text(json.dumps([["user", "Who?"], ["assistant", "Euler."]]))
    assert read_history(openai_style) == read_history(pairs) == [
        ("user", "Who?"), ("assistant", "Euler.")]


@pytest.mark.parametrize("content", ["{not json", '{"role": "user"}', '[["user"]]', "[[1, 2]]"])
def test_a_bad_history_file_is_one_sentence_naming_it(tmp_path: Path, content: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(InputError, match=r"History file .*bad\.json .*\[role, text\] pairs"):
        read_history(path)
    with pytest.raises(InputError, match="does not exist"):
        read_history(tmp_path / "missing.json")


def test_evidence_is_written_in_the_workspace_s_own_labels(tmp_path: Path) -> None:
    workspace = Workspace("acme")
    conversation = Conversation(asker(chat_services(tmp_path)), method="naive",
                                as_written=workspace.map_cypher)
    out = Recorder()
    run_chat(conversation, io.StringIO("Who taught Euler?\n/evidence\n"), out)
    (script,) = [n for n in out.notices if ":param" in n]
    assert "__Chunk____ws_acme" in script
    assert "__Chunk__)" not in script and "__Chunk__ " not in script
