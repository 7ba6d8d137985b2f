"""The registry of extraction methods: the only place that lists them."""

from __future__ import annotations

from graphrag_neo4j.indexing.extraction.base import (
    DescriptionStyle,
    ExtractionFactory,
    ExtractionMethod,
    IndexingServices,
)
from graphrag_neo4j.indexing.extraction.fast.method import FastExtraction
from graphrag_neo4j.indexing.extraction.llm_method import LLMExtraction
from graphrag_neo4j.indexing.extraction.triplets import TripletExtraction
from graphrag_neo4j.runtime.errors import InputError

# Adding a method: one module with a class that meets ExtractionMethod (its `name` and
# `description` included), plus one entry here.
FACTORIES: tuple[ExtractionFactory, ...] = (LLMExtraction, FastExtraction, TripletExtraction)
METHODS: dict[str, ExtractionFactory] = {factory.name: factory for factory in FACTORIES}


def extraction_method_names() -> list[str]:
    """Every registered extraction method, in registry order."""
    return list(METHODS)


def check_extraction_method(name: str) -> str:
    """`name` when registered; otherwise one sentence naming the ones there are."""
    if name not in METHODS:
        raise InputError(f"Unknown extraction method {name!r}: use one of {', '.join(METHODS)}.")
    return name


def create_extraction_method(name: str, services: IndexingServices) -> ExtractionMethod:
    """A new instance of the extraction method `name`."""
    return METHODS[check_extraction_method(name)](services)


def llm_extracted(name: str) -> bool:
    """Whether the registered method `name` has an LLM write the graph (as it declares)."""
    return METHODS[check_extraction_method(name)].llm_extracted


def capability_record(settings_method: str) -> dict[str, object]:
    """The parameters of `indexing/documents/record_document_capabilities`: what each
    registered method declares, by name; for a name no longer registered, the settings'
    method's; for a document naming none, LLM extraction's (documents older than the name
    were LLM-extracted)."""
    methods = {name: {"llm_extracted": factory.llm_extracted,
                      "cooccurrence_relations": factory.cooccurrence_relations}
               for name, factory in METHODS.items()}
    return {"methods": methods, "unknown": methods[check_extraction_method(settings_method)],
            "unnamed": methods[LLMExtraction.name]}


def legacy_style(name: str | None, services: IndexingServices) -> DescriptionStyle:
    """The description style of a document indexed before styles were recorded on documents:
    that of the method it names, with today's settings (the settings' method when it names
    none or one no longer registered)."""
    known = name if name in METHODS else services.settings.extraction.method
    return create_extraction_method(known, services).description_style
