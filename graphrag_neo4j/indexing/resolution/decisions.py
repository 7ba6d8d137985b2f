"""Asks the LLM which candidate entities are the same thing and applies its merges."""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from graphrag_neo4j.database.content_ids import content_id
from graphrag_neo4j.indexing.records import normalize_name
from graphrag_neo4j.indexing.resolution.grouping import UNKNOWN, Grouping, MergeRecord, ProtoEntity
from graphrag_neo4j.llm.calls.chat import LLMCaller

STAGE = "resolve"
_JSON_OBJECT = re.compile(r"\{.*\}", flags=re.DOTALL)
_DESCRIPTION_CHARS = 300


@dataclass
class Resolution:
    """Where every mention goes, and the merges that put it there."""

    protos: dict[str, ProtoEntity]
    assignment: dict[tuple[str, str], str]
    merges: list[MergeRecord] = field(default_factory=list)
    llm_decisions: int = 0
    unparsable_decisions: int = 0
    # (normalised name, entity id) pairs of undone merges: never folded together again.
    vetoed: set[tuple[str, str]] = field(default_factory=set)

    def entity_of(self, key: tuple[str, str]) -> ProtoEntity:
        """The final entity of a mention key (normalised name, type)."""
        return self.protos[self.assignment[key]]


def candidates_block(protos: list[ProtoEntity]) -> tuple[str, dict[str, str]]:
    """The prompt lines listing candidates under short ids, and the short-to-real id map."""
    lines, short_ids = [], {}
    for number, proto in enumerate(protos, start=1):
        short = f"e{number}"
        short_ids[short] = proto.id
        description = " ".join(proto.descriptions)[:_DESCRIPTION_CHARS] or "(no description)"
        lines.append(f"- id: {short} | name: {proto.name} | type: {proto.type} | {description}")
    return "\n".join(lines), short_ids


def parse_merges(reply: str, short_ids: dict[str, str]) -> list[tuple[str, str, str]] | None:
    """(from, into, reason) triples from the model's JSON; None when the reply is unusable."""
    match = _JSON_OBJECT.search(reply)
    if match is None:
        return None
    try:
        merges = json.loads(match.group(0)).get("merges", [])
    except (json.JSONDecodeError, AttributeError):
        return None
    if not isinstance(merges, list):
        return None
    decided = []
    for item in merges:
        if not isinstance(item, dict):
            continue
        source, target = short_ids.get(str(item.get("from"))), short_ids.get(str(item.get("into")))
        if source and target and source != target:
            decided.append((source, target, str(item.get("reason", ""))[:200]))
    return decided


@dataclass(frozen=True)
class MergeDecider:
    """One LLM decision per candidate group, run concurrently through the call layer."""

    llm: LLMCaller
    prompts_dir: Path | None = None

    async def decide(self, group: list[ProtoEntity]) -> list[tuple[str, str, str]] | None:
        """The merges the model chooses within one group of candidates."""
        from graphrag_neo4j.runtime.resources import load_prompt

        block, short_ids = candidates_block(group)
        prompt = load_prompt("indexing/resolve_entities", self.prompts_dir).format(candidates=block)
        return parse_merges(await self.llm.complete(prompt, stage=STAGE), short_ids)

    async def resolve(
        self,
        grouping: Grouping,
        near_groups: list[list[str]],
        vetoed: set[tuple[str, str]] | None = None,
    ) -> Resolution:
        """Apply type-conflict and near-duplicate decisions to a grouping, except vetoed ones."""
        resolution = Resolution(grouping.protos, dict(grouping.assignment), vetoed=vetoed or set())
        resolution.merges.extend(surface_merges(grouping))
        groups = [[grouping.protos[i] for i in ids] for ids in grouping.conflicts + near_groups]
        decisions = await asyncio.gather(*(self.decide(group) for group in groups))
        resolution.llm_decisions = len(groups)
        for decided in decisions:
            if decided is None:
                resolution.unparsable_decisions += 1
                continue
            for source, target, reason in decided:
                apply_merge(resolution, source, target, reason)
        repoint_merges(resolution)
        return resolution


def surface_merges(grouping: Grouping) -> list[MergeRecord]:
    """Spellings folded into one entity by normalisation ("leonhard Euler" -> "Leonhard Euler").

    A stored entity is also found under the names merged into it earlier ("Scrooge" under
    "Ebenezer Scrooge"): those names reach it through their recorded merge, so recording them
    again as spellings would put a second record of one merge in the trail (a resumed run did).
    """
    records = []
    for proto in grouping.protos.values():
        own_key = normalize_name(proto.name)
        for surface in sorted(proto.surface_names):
            if surface != proto.name and normalize_name(surface) == own_key:
                records.append(
                    MergeRecord(
                        content_id("surface", surface, proto.type),
                        surface,
                        proto.type,
                        proto.id,
                        "same normalised name",
                        "normalisation",
                    )
                )
    return records


def repoint_merges(resolution: Resolution) -> None:
    """A record of "A into B" written before "B into C" must point at C: B is never stored."""
    resolution.merges = [
        replace(m, into_id=_final(resolution, m.into_id)) for m in resolution.merges
    ]


def _final(resolution: Resolution, proto_id: str) -> str:
    """Follow earlier merges so chained decisions land on the surviving entity."""
    seen = set()
    while proto_id not in resolution.protos and proto_id not in seen:
        seen.add(proto_id)
        proto_id = next((m.into_id for m in resolution.merges if m.from_id == proto_id), proto_id)
    return proto_id


def _vetoed(resolution: Resolution, source: ProtoEntity, target: ProtoEntity) -> bool:
    """A user undid a merge of a name one entity carries into the other.

    Every name it carries counts, not only its own: after "Bob" joined "Bob Cratchit", a
    chained fold of "Bob Cratchit" into "Young Bob Cratchit" would bring back an undone
    "Bob" -> "Young Bob Cratchit".
    """
    return any(
        (key, other.id) in resolution.vetoed
        for one, other in ((source, target), (target, source))
        for key in {one.name_key, *map(normalize_name, one.surface_names)}
    )


def apply_merge(
    resolution: Resolution, source_id: str, target_id: str, reason: str, decided_by: str = "llm"
) -> None:
    """Fold `source` into `target`, keeping an entity that is already in the graph."""
    source_id, target_id = _final(resolution, source_id), _final(resolution, target_id)
    if source_id == target_id or source_id not in resolution.protos:
        return
    source, target = resolution.protos[source_id], resolution.protos[target_id]
    if source.existing and not target.existing:
        source, target = target, source  # ids already stored stay stable
    if source.existing:
        return  # two stored entities: merging them would rewrite stored provenance
    if _vetoed(resolution, source, target):
        return  # a user undid this merge (either way round: they are two things)
    if target.type == UNKNOWN and not target.existing:
        target.type = source.type
    target.descriptions.extend(d for d in source.descriptions if d not in target.descriptions)
    target.surface_names.update(source.surface_names)
    for key, assigned in resolution.assignment.items():
        if assigned == source.id:
            resolution.assignment[key] = target.id
    del resolution.protos[source.id]
    resolution.merges.append(
        MergeRecord(source.id, source.name, source.type, target.id, reason, decided_by)
    )
