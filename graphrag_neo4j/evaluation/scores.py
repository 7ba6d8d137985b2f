"""Exact match and token F1 of an answer against gold answers, with SQuAD's normalisation."""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Sequence

from graphrag_neo4j.citations import strip_citations

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCTUATION = set(string.punctuation)
# An answer counts as right for the miss split when it holds a gold answer whole and is not
# much more than it: a small model's "Norway." or "in Norway" is right, a sentence naming
# Norway among other countries is not. Token F1 >= 0.5, the rule before, also passed a wrong
# answer sharing half a name ("Neil Young" for "Astrid Young", "McDowell County" for "Avery
# County", "7 am" for "3 a.m.").
RIGHT_GOLD_SHARE = 1 / 3
# A clock time: hour, optional minutes, a.m. or p.m. in any spelling ("3 a.m.", "3:00 AM", "3pm").
_CLOCK = re.compile(r"\b(\d{1,2})(?:[:.](\d{2}))?\s*([ap])\.?\s*m\b\.?", re.IGNORECASE)


def normalize_answer(text: str) -> str:
    """Lower case, no punctuation, no articles, single spaces (the SQuAD v1.1 script's)."""
    text = "".join(ch for ch in text.lower() if ch not in _PUNCTUATION)
    return " ".join(_ARTICLES.sub(" ", text).split())


def exact_match(prediction: str, gold: str) -> float:
    """1.0 when the normalised prediction equals the normalised gold answer, else 0.0."""
    return float(normalize_answer(prediction) == normalize_answer(gold))


def token_f1(prediction: str, gold: str) -> float:
    """Harmonic mean of token precision and recall after normalisation (SQuAD v1.1)."""
    predicted = normalize_answer(prediction).split()
    wanted = normalize_answer(gold).split()
    common = sum((Counter(predicted) & Counter(wanted)).values())
    if common == 0:
        return 0.0
    precision = common / len(predicted)
    recall = common / len(wanted)
    return 2 * precision * recall / (precision + recall)


def answer_text(answer: str) -> str:
    """What is scored of an answer: its text without `[Data: ...]` citations."""
    return strip_citations(answer).strip()


def best_scores(prediction: str, golds: Sequence[str]) -> tuple[float, float]:
    """(EM, F1) against the best-matching gold answer or alias; (0, 0) without gold."""
    text = answer_text(prediction)
    if not golds:
        return 0.0, 0.0
    return (max(exact_match(text, gold) for gold in golds),
            max(token_f1(text, gold) for gold in golds))


def _clock_times(text: str) -> str:
    """Clock times written one way, "3 am" or "3:30 pm": "3:00 AM", "3 a.m." and "3am" are the
    same time, which the words alone do not show ("a.m." splits into "a m", and "a" is an
    article)."""
    return _CLOCK.sub(_clock_form, text)


def _clock_form(match: re.Match[str]) -> str:
    """One matched clock time as "3 am" or "3:30 pm"."""
    hour, minutes, half = match.group(1), match.group(2), match.group(3).lower()
    shown = f"{int(hour)}:{minutes}" if minutes and minutes != "00" else str(int(hour))
    return f"{shown} {half}m"


def _words(text: str) -> list[str]:
    """Lower-case words with punctuation as a break and no articles, so "B-29" is "B - 29";
    clock times in one form."""
    spaced = "".join(" " if ch in _PUNCTUATION else ch for ch in _clock_times(text).lower())
    return _ARTICLES.sub(" ", spaced).split()


def holds_gold(text: str, gold: str) -> bool:
    """Whether an answer's text holds the gold answer's words in order, and those words are
    at least `RIGHT_GOLD_SHARE` of the text's."""
    said, wanted = _words(text), _words(gold)
    if not wanted or len(wanted) < RIGHT_GOLD_SHARE * len(said):
        return False
    return any(said[i:i + len(wanted)] == wanted for i in range(len(said) - len(wanted) + 1))


def is_right(prediction: str, golds: Sequence[str]) -> bool:
    """Whether an answer counts as right in the retrieval/reasoning miss split: it matches a
    gold answer or alias exactly, or holds one whole with little else."""
    text = answer_text(prediction)
    return any(exact_match(text, gold) or holds_gold(text, gold) for gold in golds)
