"""Global search's points: map replies parsed into scored points with the reports they rest on,
the reduce prompt's block, and the answer's checked report citations."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence, Set
from dataclasses import dataclass

from graphrag_neo4j.citations import cites, clean_citations, strip_citations
from graphrag_neo4j.llm.tokens.counting import count_tokens

_JSON_OBJECT = re.compile(r"\{.*\}", flags=re.DOTALL)
_REPORT_IDS = re.compile(r"Reports?\s*\(([^)]*)\)", flags=re.IGNORECASE)
CITED_FOR_THE_MODEL = (
    "The answer cited no report, so it cites the reports of the analyst points it was written from."
)
# Microsoft GraphRAG's convention: at most five ids per citation, then "+more".
MAX_CITED = 5


@dataclass(frozen=True)
class Point:
    """One scored key point from a map call, with the report refs it rests on."""

    description: str
    score: int
    reports: tuple[str, ...] = ()


def batch_refs(batch: str) -> list[str]:
    """The report refs a `report_batches` table shows, in order."""
    return [line.split("|", 1)[0] for line in batch.splitlines()[1:]]


def report_citation(refs: Sequence[str]) -> str:
    """`[Data: Reports (1, 2)]`, at most five ids and "+more" past them."""
    shown = list(refs[:MAX_CITED]) + (["+more"] if len(refs) > MAX_CITED else [])
    return f"[Data: Reports ({', '.join(shown)})]"


def point_reports(description: str, batch: Sequence[str]) -> tuple[str, ...]:
    """The batch's refs a point cites; a point citing none rests on its whole batch."""
    cited = [ref.strip() for ids in _REPORT_IDS.findall(description) for ref in ids.split(",")]
    known = [ref for ref in dict.fromkeys(cited) if ref in batch]
    return tuple(known or batch)


def parse_points(reply: str, batch: Sequence[str] = ()) -> list[Point]:
    """Scored points from a map reply over the reports `batch`; a broken reply has no points.

    Each point keeps the refs it cites from its batch; its text loses the model's own citation
    (the reduce prompt shows the checked one).
    """
    match = _JSON_OBJECT.search(reply)
    if match is None:
        return []
    try:
        raw = json.loads(match.group(0)).get("points", [])
    except (json.JSONDecodeError, AttributeError):
        return []
    points = []
    for item in raw if isinstance(raw, list) else []:
        if isinstance(item, dict) and str(item.get("description", "")).strip():
            try:
                score = max(0, min(100, int(float(item.get("score", 0)))))
            except (TypeError, ValueError):
                score = 0
            description = str(item["description"]).strip()
            points.append(Point(strip_citations(description).strip() or description, score,
                                point_reports(description, batch)))
    return points


def point_text(number: int, point: Point) -> str:
    """One point as the reduce prompt shows it, with its checked citation."""
    cited = f" {report_citation(point.reports)}" if point.reports else ""
    return f"----Analyst point {number}----\nImportance: {point.score}\n{point.description}{cited}"


def reduced_points(points: Sequence[Point], budget_tokens: int) -> list[Point]:
    """Non-zero points, best first, as long as their texts fit the budget."""
    kept: list[Point] = []
    used = 0
    for point in sorted(points, key=lambda p: -p.score):
        if point.score <= 0:
            continue
        cost = count_tokens(point_text(len(kept) + 1, point))
        if used + cost > budget_tokens:
            break
        kept.append(point)
        used += cost
    return kept


def reduce_block(points: Sequence[Point]) -> str:
    """The reduce prompt's analyst points, numbered in order."""
    return "\n\n".join(point_text(n, p) for n, p in enumerate(points, start=1))


def cited_answer(text: str, points: Sequence[Point], shown: Set[str]) -> tuple[str, bool]:
    """The reduce answer with citations only of reports it was shown; when none is left, the
    reports of the points it read are cited at its end. Also says whether that was needed."""
    cleaned = clean_citations(text, {"Reports": shown})
    # clean_citations spells every kept kind canonically: "Reports (...)".
    if cites(cleaned, "Reports"):
        return cleaned, False
    refs = list(dict.fromkeys(ref for point in points for ref in point.reports))
    if not refs:
        return cleaned, False
    return f"{cleaned.rstrip()} {report_citation(refs)}", True
