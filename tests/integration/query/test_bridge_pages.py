"""Hops reads the page about a bridge by its title, however many passages name the bridge, and
the pages of the names inside a longer entity name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graphrag_neo4j.database.store import Store
from graphrag_neo4j.engine import GraphRAG
from graphrag_neo4j.llm.offline.embeddings import MiniLMEmbeddings
from graphrag_neo4j.llm.testing import FakeChatModel
from graphrag_neo4j.query.base import make_query
from graphrag_neo4j.query.hops.search import HopsSearch
from graphrag_neo4j.settings import Settings

pytestmark = pytest.mark.integration

QUESTION = "When was the director of the film Dark River born?"
FILM = "Dark River is a 2017 British drama film directed by Clio Barnard, starring Ruth Wilson."
DIRECTOR = "Clio Barnard (born 1965) is an artist and filmmaker from Otley."
# Other pages naming the director, more than a bridge may be named in (2 here), each a little
# nearer the question than the director's page (cosine 0.30 against 0.28 with MiniLM).
OTHERS = [f"The Arbor {n} is a documentary film about a playwright; Clio Barnard directed it."
          for n in range(3)]


def _corpus(tmp_path: Path) -> Path:
    records = [{"id": "film", "title": "Dark River (2017 film)", "text": FILM},
               {"id": "director", "title": "Clio Barnard", "text": DIRECTOR},
               *({"id": f"other{n}", "title": f"The Arbor {n}", "text": text}
                 for n, text in enumerate(OTHERS))]
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text("\n".join(json.dumps(r) for r in records), encoding="utf-8")
    return corpus


def _document(store: Store, ref: str) -> str:
    row = store.read("evaluation/gold_documents", refs=[ref])[0]
    return str(row["by_id"] or row["by_source"][0])


async def test_the_directors_page_follows_the_films_though_others_name_him_more(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    tuned = settings.model_copy(update={"cache_dir": tmp_path / "cache"})
    with GraphRAG(tuned, llm=FakeChatModel(rules=[]), embeddings=MiniLMEmbeddings()) as rag:
        rag.index([_corpus(tmp_path)], method="fast")
        film, director = (_document(store, ref) for ref in ("film", "director"))
        query = make_query(rag.settings, QUESTION, hybrid={"enabled": False},
                           hops={"follow_up": False, "bridge_max_passages": 2})
        ranked = await HopsSearch(rag).rank_documents(query, 2)
        assert ranked == [film, director]
        without = query.with_search(hops={"bridge_weight": 0.0})
        assert director not in await HopsSearch(rag).rank_documents(without, 2)


# Triplets name the town's region as one phrase; the page about the country is "Somalia".
TOWN = {"id": "town", "title": "Ceelmakoile",
        "text": "Ceelmakoile is a town in the central Hiran region of Somalia.",
        "triplets": [["Ceelmakoile", "is a town in", "Hiran region of Somalia"]]}
COUNTRY = {"id": "country", "title": "Somalia",
           "text": "In 2012 parliament elected Hassan Sheikh Mohamud as the new President.",
           "triplets": [["Hassan Sheikh Mohamud", "elected as", "President"]]}
DISTRACTORS = [{"id": f"d{n}", "title": f"Town {n}",
                "text": f"Town {n} is in charge of a region; its mayor was elected in 2012.",
                "triplets": [[f"Mayor of Town {n}", "in charge of", "region"]]} for n in range(3)]


async def test_the_page_of_a_name_inside_an_entity_name_follows_its_passage(
    store: Store, settings: Settings, tmp_path: Path
) -> None:
    corpus = tmp_path / "triplets.jsonl"
    corpus.write_text("\n".join(json.dumps(r) for r in [TOWN, COUNTRY, *DISTRACTORS]),
                      encoding="utf-8")
    tuned = settings.model_copy(update={"cache_dir": tmp_path / "cache"})
    with GraphRAG(tuned, llm=FakeChatModel(rules=[]), embeddings=MiniLMEmbeddings()) as rag:
        rag.index_triplets(corpus)
        town, country = (_document(store, ref) for ref in ("town", "country"))
        query = make_query(rag.settings, "Who was in charge of the country Ceelmakoile is in?",
                           hybrid={"enabled": False}, hops={"follow_up": False})
        assert await HopsSearch(rag).rank_documents(query, 2) == [town, country]
        without = query.with_search(hops={"bridge_weight": 0.0})
        assert country not in await HopsSearch(rag).rank_documents(without, 2)
