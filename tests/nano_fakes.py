"""A fake LLM scripted with the Milvus notebook's triplets, shared by the nano tests."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from graphrag_neo4j.indexing.records import normalize_name
from graphrag_neo4j.llm.testing import FakeChatModel

PEOPLE = {"jakob bernoulli", "johann bernoulli", "daniel bernoulli", "leonhard euler", "euler"}
PLACES = {"basel"}


def load_nano(shared_data: Path) -> dict[str, Any]:
    """The nano dataset: 4 passages with their triplets, and the notebook's query."""
    return dict(json.loads((shared_data / "milvus_nano" / "nano_dataset.json").read_text()))


def write_nano_passages(dataset: dict[str, Any], folder: Path) -> list[Path]:
    """The dataset's passages as `passage_N.txt` files in `folder` (made if missing)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for index, passage in enumerate(dataset["passages"]):
        path = folder / f"passage_{index}.txt"
        path.write_text(passage["passage"], encoding="utf-8")
        paths.append(path)
    return paths


def kind_of(name: str) -> str:
    """The type the fake extractor gives a name."""
    key = normalize_name(name)
    return "person" if key in PEOPLE else "location" if key in PLACES else "concept"


def extraction_reply(index: int, triplets: list[list[str]]) -> str:
    """Tagged records for one passage: every triplet end as a concept, then the triplets."""
    names = list(dict.fromkeys(name for s, _, o in triplets for name in (s, o)))
    concepts = [
        f"<concept><name>{n}</name><type>{kind_of(n)}</type>"
        f"<description>{_facts(n, triplets)} (passage {index}).</description></concept>"
        for n in names
    ]
    records = [
        f"<triplet><subject>{s}</subject><predicate>{p}</predicate><object>{o}</object>"
        f"<description>Passage {index} says {s} {p} {o}.</description><strength>8</strength>"
        "</triplet>"
        for s, p, o in triplets
    ]
    return "\n".join(concepts + records)


def _facts(name: str, triplets: list[list[str]]) -> str:
    """What the passage's triplets say about `name`, as the description an LLM would write."""
    return "; ".join(f"{s} {p} {o}" for s, p, o in triplets if name in (s, o))


_CANDIDATE = re.compile(r"- id: (e\d+) \| name: (.*?) \| type: (\S+)")


def decide_merges(prompt: str) -> str:
    """Merge a person's surname into the full name ending with it ("Euler" -> "Leonhard Euler")."""
    candidates = _CANDIDATE.findall(prompt)
    merges = []
    for short_id, short_name, short_type in candidates:
        for long_id, long_name, long_type in candidates:
            same_kind = short_type == long_type == "person"
            words = normalize_name(long_name).split()
            if same_kind and len(words) > 1 and normalize_name(short_name) == words[-1]:
                merges.append({"from": short_id, "into": long_id, "reason": "short form"})
    return json.dumps({"merges": merges})


def summarize(prompt: str) -> str:
    """A 'summary' that keeps every description line, so tests can see which survived."""
    lines = [line[2:] for line in prompt.splitlines() if line.startswith("- ")]
    return "Summary: " + " | ".join(lines)


def nano_fake_llm(
    dataset: dict[str, Any], extra: list[tuple[str, Any]] | None = None
) -> FakeChatModel:
    """A fake chat model that extracts the notebook's triplets from the nano passages."""
    rules: list[Any] = [
        ("Missing records:", "<done/>"),
        ("may or may not name the same", decide_merges),
        ("Combine their descriptions", summarize),
        *(extra or []),
    ]
    for index, passage in enumerate(dataset["passages"]):
        rules.append((passage["passage"][:80], extraction_reply(index, passage["triplets"])))
    return FakeChatModel(rules=rules)
