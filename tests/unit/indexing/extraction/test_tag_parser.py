"""The tolerant extraction tag parser, on clean and on broken replies."""

from __future__ import annotations

import pytest

from graphrag_neo4j.indexing.extraction.tag_parser import (
    ExtractedEntity,
    ExtractedTriplet,
    parse_extraction,
)

CLEAN = (
    "<entity><name>Leonhard Euler</name><type>person</type>"
    "<description>Swiss mathematician.</description></entity>\n"
    "<entity><name>Johann Bernoulli</name><type>person</type>"
    "<description>Euler's teacher.</description></entity>\n"
    "<triplet><subject>Leonhard Euler</subject><predicate>studied under</predicate>"
    "<object>Johann Bernoulli</object><description>Euler was taught by Bernoulli.</description>"
    "<strength>8</strength></triplet>\n"
)


def test_clean_reply() -> None:
    parsed = parse_extraction(CLEAN)
    assert parsed.entities == [
        ExtractedEntity("Leonhard Euler", "person", "Swiss mathematician."),
        ExtractedEntity("Johann Bernoulli", "person", "Euler's teacher."),
    ]
    assert parsed.triplets == [
        ExtractedTriplet("Leonhard Euler", "studied under", "Johann Bernoulli",
                         "Euler was taught by Bernoulli.", 8)
    ]
    assert (parsed.dropped_entities, parsed.dropped_triplets, parsed.no_more) == (0, 0, False)
    assert (parsed.kept_entities, parsed.kept_triplets) == (2, 1)


def test_concept_is_an_alias_of_entity_and_order_is_kept() -> None:
    reply = ("<concept><name>Basel</name><type>location</type></concept>"
             "<entity><name>Euler</name></entity>"
             "<concept><name>Calculus</name><description>A field.</description></concept>")
    names = [e.name for e in parse_extraction(reply).entities]
    assert names == ["Basel", "Euler", "Calculus"]


def test_whitespace_case_fences_and_chatter_are_tolerated() -> None:
    reply = """Sure! Here are the records you asked for:

```xml
< ENTITY >
  <Name>  Daniel
     Bernoulli </Name>
  <TYPE> Person </TYPE>
  <Description>
    Son of Johann.
  </Description>
</Entity >
<Triplet><Subject>Daniel Bernoulli</Subject><Predicate>son of</Predicate>
<Object>Johann Bernoulli</Object></TRIPLET>
```
I hope this helps."""
    parsed = parse_extraction(reply)
    assert parsed.entities == [ExtractedEntity("Daniel Bernoulli", "person", "Son of Johann.")]
    assert parsed.triplets == [
        ExtractedTriplet("Daniel Bernoulli", "son of", "Johann Bernoulli", "", 5)
    ]


def test_missing_optional_fields_take_defaults() -> None:
    parsed = parse_extraction(
        "<entity><name>Euler</name></entity>"
        "<triplet><subject>A</subject><predicate>knows</predicate><object>B</object></triplet>"
    )
    assert parsed.entities == [ExtractedEntity("Euler", "unknown", "")]
    assert parsed.triplets[0].strength == 5 and parsed.triplets[0].description == ""


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("8", 8), ("0", 1), ("-3", 1), ("15", 10), ("7.6", 8), ("9/10", 9), ("high", 5), ("", 5)],
)
def test_strength_is_parsed_and_clamped(raw: str, expected: int) -> None:
    reply = (f"<triplet><subject>A</subject><predicate>p</predicate><object>B</object>"
             f"<strength>{raw}</strength></triplet>")
    assert parse_extraction(reply).triplets[0].strength == expected


def test_records_missing_required_fields_are_dropped_and_counted() -> None:
    reply = """
<entity><type>person</type><description>No name.</description></entity>
<entity><name>   </name></entity>
<entity><name>Kept</name></entity>
<triplet><subject>A</subject><object>B</object></triplet>
<triplet><subject>A</subject><predicate>p</predicate><object></object></triplet>
<triplet><subject>A</subject><predicate>p</predicate><object>B</object></triplet>
"""
    parsed = parse_extraction(reply)
    assert [e.name for e in parsed.entities] == ["Kept"]
    assert len(parsed.triplets) == 1
    assert (parsed.dropped_entities, parsed.dropped_triplets) == (2, 2)


def test_an_unclosed_record_is_dropped_without_swallowing_the_next() -> None:
    reply = ("<entity><name>Broken</name><type>person</type>\n"
             "<entity><name>Fine</name><type>person</type></entity>\n"
             "<triplet><subject>A</subject><predicate>p</predicate><object>B</object>")
    parsed = parse_extraction(reply)
    assert [e.name for e in parsed.entities] == ["Fine"]
    assert parsed.triplets == []
    assert (parsed.dropped_entities, parsed.dropped_triplets) == (1, 1)


def test_an_unclosed_field_drops_its_record() -> None:
    reply = ("<entity><name>Euler<type>person</type></entity>"
             "<entity><name>Basel</name><description>A city</entity>")
    parsed = parse_extraction(reply)
    assert parsed.entities == []
    assert parsed.dropped_entities == 2


def test_a_reply_cut_off_mid_record_keeps_the_complete_ones() -> None:
    parsed = parse_extraction(CLEAN + "<triplet><subject>Euler</subject><predicate>wro")
    assert len(parsed.entities) == 2 and len(parsed.triplets) == 1
    assert parsed.dropped_triplets == 1


def test_entities_in_values_are_unescaped_and_types_lowercased() -> None:
    parsed = parse_extraction(
        "<entity><name>Johnson &amp; Johnson</name><type>Organization</type></entity>"
    )
    assert parsed.entities[0].name == "Johnson & Johnson"
    assert parsed.entities[0].type == "organization"


def test_field_spelling_variants_are_accepted() -> None:
    parsed = parse_extraction(
        "<entity><entity_name>Euler</entity_name><entity_type>person</entity_type></entity>"
        "<triplet><source>Euler</source><relation>lived in</relation><target>Basel</target>"
        "<weight>6</weight></triplet>"
    )
    assert parsed.entities == [ExtractedEntity("Euler", "person", "")]
    assert parsed.triplets == [ExtractedTriplet("Euler", "lived in", "Basel", "", 6)]


def test_self_closing_optional_field_is_empty() -> None:
    parsed = parse_extraction("<entity><name>Euler</name><description/></entity>")
    assert parsed.entities == [ExtractedEntity("Euler", "unknown", "")]


@pytest.mark.parametrize("reply", ["", "   \n", "```\n```", "<done/>", "<DONE />", "<done>"])
def test_empty_or_done_means_no_more(reply: str) -> None:
    parsed = parse_extraction(reply)
    assert parsed.no_more
    assert parsed.entities == [] and parsed.triplets == []


def test_done_after_records_keeps_them_and_sets_no_more() -> None:
    parsed = parse_extraction(CLEAN + "\n<done/>")
    assert parsed.no_more and len(parsed.entities) == 2


def test_prose_without_records_is_not_no_more() -> None:
    parsed = parse_extraction("I could not find anything else.")
    assert not parsed.no_more
    assert (parsed.dropped_entities, parsed.dropped_triplets) == (0, 0)


def test_results_are_frozen() -> None:
    entity = parse_extraction("<entity><name>Euler</name></entity>").entities[0]
    with pytest.raises(AttributeError):
        entity.name = "Other"  # type: ignore[misc]


def test_quotes_around_a_whole_name_are_removed() -> None:
    reply = ('<concept><name>"Scrooge and Marley"</name></concept>'
             "<concept><name>“A Christmas Carol”</name></concept>"
             "<concept><name>Scrooge's</name></concept>"
             "<triplet><subject>'Scrooge'</subject><predicate>ran</predicate>"
             '<object>"Scrooge and Marley"</object></triplet>')
    parsed = parse_extraction(reply)
    assert [e.name for e in parsed.entities] == [
        "Scrooge and Marley", "A Christmas Carol", "Scrooge's"
    ]
    assert (parsed.triplets[0].subject, parsed.triplets[0].object) == (
        "Scrooge", "Scrooge and Marley"
    )
