"""Merges the descriptions an entity or relation collected: joined if short, else summarised."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from graphrag_neo4j.indexing.extraction.base import DescriptionStyle
from graphrag_neo4j.llm.calls.chat import LLMCaller
from graphrag_neo4j.llm.tokens.counting import count_tokens
from graphrag_neo4j.runtime.resources import load_prompt
from graphrag_neo4j.settings import Settings

STAGE = "summarize"
SENTENCE_SEPARATOR = "\n"  # between the verbatim sentences of an extractive description


def distinct(descriptions: list[str]) -> list[str]:
    """Non-empty descriptions without repeats, in a stable (sorted) order."""
    return sorted({d.strip() for d in descriptions if d and d.strip()})


# A sentence shorter than this rarely says anything about what it names ("Ebenezer!", "'Mr.
# Scrooge!' said Bob."): such sentences are chosen only when an entity has no longer ones.
MIN_SENTENCE_WORDS = 6


# What may come before a sentence's first word: quotes, brackets, emphasis, dashes, spaces.
_OPENERS = "\"'‘“([_*- "


def opens_with(sentence: str, name: str) -> bool:
    """Whether the sentence starts with the name (past quotes and brackets), as a sentence that
    defines its subject does: "Bob Cratchit, clerk to Ebenezer Scrooge." """
    return bool(name) and sentence.lstrip(_OPENERS).casefold().startswith(name.casefold())


def shortest(sentences: list[str], count: int, name: str = "") -> list[str]:
    """The `count` shortest distinct sentences of at least MIN_SENTENCE_WORDS words (shorter
    ones when too few are that long), those opening with `name` first, in reading order:
    crisp, about the entity, yet saying something."""
    unique = list(dict.fromkeys(s for s in sentences if s))

    def order(sentence: str) -> tuple[bool, bool, int, str]:
        too_short = len(sentence.split()) < MIN_SENTENCE_WORDS
        return too_short, not opens_with(sentence, name), len(sentence), sentence

    chosen = set(sorted(unique, key=order)[:count])
    return [s for s in unique if s in chosen]


@dataclass(frozen=True)
class DescriptionMerger:
    """One description from many, within a token budget."""

    llm: LLMCaller | None
    budget_tokens: int
    prompts_dir: Path | None = None
    # Extractive descriptions (fast extraction) keep this many of their shortest sentences.
    max_sentences: int | None = None
    # Words of the description that an entity's vector encodes (None: all).
    vector_words: int | None = None

    @classmethod
    def from_settings(
        cls, llm: LLMCaller | None, settings: Settings, style: DescriptionStyle
    ) -> DescriptionMerger:
        """The merger of an extraction method's style, with the settings' summary budget and
        prompt overrides (an extractive style, or one without LLM summaries, asks no LLM)."""
        summarising = style.llm_summaries and style.sentences is None
        return cls(llm if summarising else None,
                   settings.extraction.summary_token_budget, settings.prompts_dir,
                   style.sentences, style.vector_words)

    def needs_summary(self, descriptions: list[str]) -> bool:
        """Whether the joined descriptions pass the budget (and an LLM is there to shorten them)."""
        return self.llm is not None and count_tokens(" ".join(distinct(descriptions))) > (
            self.budget_tokens
        )

    async def merge(self, kind: str, name: str, descriptions: list[str]) -> str:
        """The joined descriptions, or one LLM summary of them once they pass the budget."""
        unique = distinct(descriptions)
        if self.max_sentences is not None:
            sentences = [s.strip() for d in unique for s in d.split(SENTENCE_SEPARATOR)]
            return " ".join(shortest(sentences, self.max_sentences, name))
        if not self.needs_summary(unique) or self.llm is None:
            return " ".join(unique)
        prompt = load_prompt("indexing/summarize_descriptions", self.prompts_dir).format(
            kind=kind,
            name=name,
            max_words=max(40, self.budget_tokens * 3 // 4),
            descriptions="\n".join(f"- {d}" for d in unique),
        )
        summary = (await self.llm.complete(prompt, stage=STAGE)).strip()
        return summary or " ".join(unique)
