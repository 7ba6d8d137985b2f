"""The offline multilingual embedder: pinned weights, and a translation finds its source."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from graphrag_neo4j.llm.offline.catalog import MULTILINGUAL
from graphrag_neo4j.llm.offline.multilingual import (
    MultilingualEmbeddings,
    resources_folder,
    verify_resources,
)
from graphrag_neo4j.runtime.errors import ModelError

pytestmark = pytest.mark.slow

ENGLISH = ["Leonhard Euler studied mathematics in Basel.",
           "The river floods the valley every spring.",
           "Scrooge paid his clerk fifteen shillings a week."]
CHINESE = ["莱昂哈德·欧拉在巴塞尔学习数学。", "每年春天河水都会淹没山谷。",
           "斯克鲁奇每周付给他的职员十五先令。"]
RUSSIAN = ["Леонард Эйлер изучал математику в Базеле.", "Каждую весну река затопляет долину.",
           "Скрудж платил своему клерку пятнадцать шиллингов в неделю."]


def _each_finds_its_source(embedder: MultilingualEmbeddings, translations: list[str]) -> int:
    english = np.array(embedder.embed_documents(ENGLISH))
    other = np.array(embedder.embed_documents(translations))
    return int(((other @ english.T).argmax(axis=1) == np.arange(len(ENGLISH))).sum())


@pytest.mark.parametrize("translations", [CHINESE, RUSSIAN], ids=["zh", "ru"])
def test_a_translation_is_nearest_its_english_source(translations: list[str]) -> None:
    embedder = MultilingualEmbeddings()
    vectors = np.array(embedder.embed_documents(translations))
    assert vectors.shape == (3, MULTILINGUAL.dimension)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    assert _each_finds_its_source(embedder, translations) == 3


def test_weights_that_are_not_the_pinned_ones_are_refused(tmp_path: Path) -> None:
    folder = tmp_path / "resources"
    shutil.copytree(resources_folder(), folder)
    verify_resources(folder)  # the installed copy passes
    (folder / "sp.model").write_bytes(b"swapped")
    with pytest.raises(ModelError, match=r"sp\.model has sha256 .* not the pinned .*reinstall"):
        verify_resources(folder)
