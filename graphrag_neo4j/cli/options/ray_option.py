"""The `--ray` option `index` and `communities --build` take, and the settings it turns on."""

from __future__ import annotations

from typing import Annotated

import typer

from graphrag_neo4j.settings import Settings, load_settings

RayOption = Annotated[
    bool,
    typer.Option(help="Run the map work (parsing, LLM calls, embeddings) on Ray: the cluster of"
                 " execution.ray_address or RAY_ADDRESS, else a local Ray (needs"
                 " graphrag-neo4j\\[ray])."),
]


def run_settings(ray: bool) -> Settings:
    """The settings file's and environment's, with Ray turned on by `--ray`."""
    settings = load_settings()
    if not ray:
        return settings
    execution = settings.execution.model_copy(update={"ray": True})
    return settings.model_copy(update={"execution": execution})
