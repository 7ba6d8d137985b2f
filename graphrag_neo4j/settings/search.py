"""[search]: the budgets every method shares, and each method's section."""

from __future__ import annotations

import logging
import warnings
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import ConfigDict, Field, model_validator

from graphrag_neo4j.settings.base import ANSWER_CONTEXT, Section
from graphrag_neo4j.settings.renamed import moved_search_names
from graphrag_neo4j.settings.search_methods import (
    CypherSearchSettings,
    DriftSearchSettings,
    GlobalSearchSettings,
    HopsSearchSettings,
    HybridSearchSettings,
    LocalSearchSettings,
    NaiveSearchSettings,
    PprSearchSettings,
)

logger = logging.getLogger(__name__)


class SearchSettings(Section):
    """Budgets of the query methods: shared ones here, each method's in its own section."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    response_type: str = Field("Multiple Paragraphs", description="Shape of the answer.")
    history_tokens: int = Field(
        1000, ge=0, description="Every method: most tokens of earlier turns in a prompt."
    )
    passage_context_tokens: int = Field(
        4000, json_schema_extra=ANSWER_CONTEXT,
        description="Naive/Hops: token budget of the passages in the answer prompt."
    )
    grounding: Literal["flag", "drop", "off"] = Field(
        "flag",
        description="Every method, after the answer: citations of rows not in the context are"
        " repaired or removed, and named entities of the answer found nowhere in the context"
        " or question are unsupported. flag = list them in the answer's notes; drop = remove"
        " the sentences naming them (and say so); off = no check.",
    )
    answer_check: Literal["flag", "off"] = Field(
        "flag",
        description="Every method, after the answer: an answer that only repeats words of the"
        " question, or gives no date or time to a when-question or no number to a how-many"
        " one, is flagged in the answer's notes as not answering it (a small model often names"
        " a step on the way instead). off = no check.",
    )
    lazy_report_budget: int = Field(
        5,
        description="Global and DRIFT: most community reports one question may have the LLM "
        "write when communities hold extractive summaries only (lazy reports). Global maps over "
        "that many communities nearest the question; DRIFT's primer writes the missing reports "
        "of its nearest ones. 0 reads the extractive summaries instead.",
    )
    local: LocalSearchSettings = Field(
        default_factory=LocalSearchSettings, description="Settings of local search."
    )
    global_: GlobalSearchSettings = Field(
        default_factory=GlobalSearchSettings, alias="global",
        description="Settings of global search.",
    )
    hops: HopsSearchSettings = Field(
        default_factory=HopsSearchSettings, description="Settings of hops search."
    )
    ppr: PprSearchSettings = Field(
        default_factory=PprSearchSettings, description="Settings of PPR search."
    )
    drift: DriftSearchSettings = Field(
        default_factory=DriftSearchSettings, description="Settings of DRIFT search."
    )
    cypher: CypherSearchSettings = Field(
        default_factory=CypherSearchSettings, description="Settings of cypher search."
    )
    naive: NaiveSearchSettings = Field(
        default_factory=NaiveSearchSettings, description="Settings of naive search."
    )
    hybrid: HybridSearchSettings = Field(
        default_factory=HybridSearchSettings,
        description="Fulltext candidates beside vector ones (naive, hops and local).",
    )

    @model_validator(mode="before")
    @classmethod
    def _move_renamed(cls, data: Any) -> Any:
        """Old flat names in a settings file or the environment still work, with a warning."""
        if not isinstance(data, Mapping):
            return data
        moved, lines = moved_search_names(data)
        for line in lines:
            logger.warning(line)
            warnings.warn(line, DeprecationWarning, stacklevel=2)
        return moved
