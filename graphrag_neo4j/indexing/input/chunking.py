"""Sliding-window chunking in tiktoken tokens or characters, with cuts snapped to sentence ends."""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterator, Sequence

from graphrag_neo4j.database.content_ids import content_id
from graphrag_neo4j.indexing.input.formats.places import locate
from graphrag_neo4j.indexing.records import Chunk, Document
from graphrag_neo4j.llm.tokens.counting import count_tokens, get_encoding
from graphrag_neo4j.runtime.errors import ConfigError
from graphrag_neo4j.settings import ChunkingSettings

# Not langchain_text_splitters: its TokenTextSplitter cuts blindly at token counts (and can split
# a multi-byte character), and its recursive splitter merges pieces rather than sliding a window
# with an exact overlap. This one slides over tiktoken token offsets and snaps the cuts.

# A window's end may move back by this share of the size to land on a sentence end.
SNAP_SHARE = 0.12
_SENTENCE_ENDS = frozenset(".!?…")
# Full-width terminators end a sentence without a following space (CJK uses no spaces).
_CJK_SENTENCE_ENDS = frozenset("。！？")
_CLOSERS = frozenset("\"')]}”’»」』）】")
# A period after these words rarely ends a sentence; cutting there would split "Mr. Scrooge".
_ABBREVIATIONS = frozenset(
    {"mr", "mrs", "ms", "dr", "st", "jr", "sr", "vs", "e.g", "i.e", "fig", "prof"}
)
# Whitespace runs longer than this are not scanned further; a cut inside them is fine anyway.
_MAX_GAP_SCAN = 64

_NON_SPACE = re.compile(r"\S")
# Tokenising a long text in segments of this many characters bounds the memory it takes.
SEGMENT_CHARS = 1 << 20
_LINE_START = re.compile(r"(?<=\n)(?=\S)")
_WORD_START = re.compile(r"(?<=\s)(?=\S)")
_CLAUSE_ENDS = frozenset(",;:，；：、")

# Characters that must match where a window's text starts inside the window before it: fewer
# would let a short phrase repeated by chance pass for an overlap.
OVERLAP_PROBE_CHARS = 16

# Boundary ranks: a cut goes to the latest boundary of the best rank within the snap range.
SENTENCE, PARAGRAPH, LINE, CLAUSE, WORD, INSIDE_WORD = 5, 4, 3, 2, 1, 0


def chunk_document(document: Document, settings: ChunkingSettings) -> list[Chunk]:
    """Cut a document into overlapping windows; chunk ids depend on document, position, text."""
    _check_settings(settings)
    text = document.text
    if not text.strip():
        return []
    offsets = _unit_offsets(text, settings)
    spans = _window_spans(text, offsets, settings)
    chunks: list[Chunk] = []
    for start, end in spans:
        window = text[start:end]
        piece = window.strip()
        if not piece:
            continue
        index = len(chunks)
        char_start = start + len(window) - len(window.lstrip())
        pages, section = locate(document.places, char_start, char_start + len(piece))
        chunks.append(
            Chunk(
                id=content_id("chunk", document.id, str(index), piece),
                document_id=document.id,
                text=piece,
                chunk_index=index,
                n_tokens=count_tokens(piece, settings.encoding),
                char_start=char_start,
                char_end=char_start + len(piece),
                pages=pages,
                section=section,
            )
        )
    return chunks


def texts_read_once(chunks: Sequence[Chunk]) -> list[str]:
    """Each chunk's text without its overlap with the chunk before it in `chunks`."""
    if not chunks:  # a batch whose every document fast extraction refused
        return []
    previous: list[Chunk | None] = [None, *chunks[:-1]]
    return [text_after_overlap(p, chunk) for p, chunk in zip(previous, chunks, strict=True)]


def text_after_overlap(previous: Chunk | None, chunk: Chunk) -> str:
    """The chunk's text without the overlap it shares with the window before it.

    Windows overlap so that an LLM reading one chunk sees the sentences around its start; a
    reader that goes through a document's chunks in order has seen them already. `previous` is
    the chunk read just before (any chunk, or None): only the same document's preceding window
    shares text, and the shared text is checked, never assumed.
    """
    if (
        previous is None
        or previous.document_id != chunk.document_id
        or previous.chunk_index != chunk.chunk_index - 1
    ):
        return chunk.text
    return chunk.text[_shared_length(previous.text, chunk.text) :].lstrip()


def _shared_length(before: str, after: str) -> int:
    """Length of the longest end of `before` that `after` starts with (0 when none)."""
    probe = after[:OVERLAP_PROBE_CHARS]
    if len(probe) < OVERLAP_PROBE_CHARS:
        return 0
    position = before.rfind(probe)
    best = 0
    # Repeated text can put the probe in several places: the earliest verified one is longest.
    while position >= 0:
        if after.startswith(before[position:]):
            best = len(before) - position
        position = before.rfind(probe, 0, position)
    return best


def _check_settings(settings: ChunkingSettings) -> None:
    if settings.size < 1:
        raise ConfigError(f"chunking.size is {settings.size}; set it to a positive number.")
    if not 0 <= settings.overlap < settings.size:
        raise ConfigError(
            f"chunking.overlap is {settings.overlap}; set it between 0 and chunking.size - 1 "
            f"({settings.size - 1})."
        )


def _unit_offsets(text: str, settings: ChunkingSettings) -> Sequence[int]:
    """Character offset where each unit starts, plus len(text) at the end.

    The text is tokenised a segment at a time (cut at line starts, where tiktoken's
    pre-tokeniser splits anyway) and the offsets kept as a compact int64 array: tokenising a
    20 MB file whole held token and offset lists of over a gigabyte.
    """
    if settings.unit == "chars":
        return range(len(text) + 1)
    encoder = get_encoding(settings.encoding)
    offsets = array("q")
    for start, end in _segments(text):
        tokens = encoder.encode_ordinary(text[start:end])
        # decode_with_offsets maps a token that starts inside a multi-byte character (CJK,
        # emoji) to that character's start, so every offset is a valid str index.
        _, local = encoder.decode_with_offsets(tokens)
        offsets.extend(start + offset for offset in local)
    offsets.append(len(text))
    return offsets


def _segments(text: str) -> Iterator[tuple[int, int]]:
    """Spans of about SEGMENT_CHARS characters, each ending where a line (else a word) starts."""
    start = 0
    while len(text) - start > SEGMENT_CHARS:
        low, high = start + SEGMENT_CHARS, start + 2 * SEGMENT_CHARS
        cut = _LINE_START.search(text, low, high) or _WORD_START.search(text, low, high)
        if cut is None:
            break  # one unbroken run of 2 MB: the rest is tokenised whole
        yield start, cut.start()
        start = cut.start()
    yield start, len(text)


def _window_spans(
    text: str, offsets: Sequence[int], settings: ChunkingSettings
) -> list[tuple[int, int]]:
    """Character spans of the windows: `size` units each, `overlap` units shared, snapped."""
    n_units = len(offsets) - 1
    content_end = len(text.rstrip())
    snap = max(1, round(settings.size * SNAP_SHARE))
    spans: list[tuple[int, int]] = []
    start = 0
    while True:
        end = _window_end(text, offsets, start, snap, settings)
        span = (offsets[start], offsets[end])
        if spans and _holds_content_of(text, span, spans[-1]):
            spans.pop()  # a mostly-blank window whose text the next one repeats: drop it
        spans.append(span)
        if end == n_units or offsets[end] >= content_end:
            return spans  # the text is covered (at most whitespace is left)
        start = _next_start(text, offsets, start, end, settings.overlap, snap)


def _holds_content_of(text: str, outer: tuple[int, int], inner: tuple[int, int]) -> bool:
    """Whether span `outer` holds all non-whitespace text of span `inner`."""
    first = _NON_SPACE.search(text, inner[0], inner[1])
    if first is None:
        return True
    last = len(text[inner[0] : inner[1]].rstrip()) + inner[0]
    return outer[0] <= first.start() and last <= outer[1]


def _window_end(
    text: str, offsets: Sequence[int], start: int, snap: int, settings: ChunkingSettings
) -> int:
    """The unit where the window from `start` ends: snapped, and within the token budget."""
    n_units = len(offsets) - 1
    high = min(start + settings.size, n_units)
    while True:
        end = high
        if high < n_units:
            end = _snap_end(text, offsets, low=max(start + 1, high - snap), high=high)
        if settings.unit == "chars" or end == start + 1:
            return end  # a character window never holds more characters than units
        # Encoding a slice can merge differently at its edges than the whole text did, so the
        # window is measured again; the rare one over budget ends earlier and is snapped anew.
        excess = count_tokens(text[offsets[start] : offsets[end]].strip(), settings.encoding)
        excess -= settings.size
        if excess <= 0:
            return end
        high = max(start + 1, end - excess)


def _snap_end(text: str, offsets: Sequence[int], low: int, high: int) -> int:
    """The unit index in [low, high] with the best boundary rank, latest first."""
    best, best_rank = high, boundary_rank(text, offsets[high])
    for unit in range(high - 1, low - 1, -1):
        if best_rank == SENTENCE:
            break
        rank = boundary_rank(text, offsets[unit])
        if rank > best_rank:
            best, best_rank = unit, rank
    return best


def _next_start(
    text: str, offsets: Sequence[int], start: int, end: int, overlap: int, snap: int
) -> int:
    """Where the next window starts: `overlap` units before `end`, moved back to a word start."""
    target = max(end - overlap, start + 1)
    if overlap == 0:
        return end
    # Moving back keeps at least `overlap` units shared; the window still never exceeds size.
    for unit in range(target, max(start, target - snap), -1):
        if boundary_rank(text, offsets[unit]) >= WORD:
            return unit
    return target


def boundary_rank(text: str, position: int) -> int:
    """How good a cut at `position` is: SENTENCE > PARAGRAPH > LINE > CLAUSE > WORD > inside."""
    if position <= 0 or position >= len(text):
        return SENTENCE
    left = position
    while left > 0 and position - left < _MAX_GAP_SCAN and text[left - 1].isspace():
        left -= 1
    right = position
    while right < len(text) and right - position < _MAX_GAP_SCAN and text[right].isspace():
        right += 1
    gap = text[left:right]
    if not gap:
        return _rank_without_space(text, position)
    if _ends_sentence(text, left, needs_space=False):
        return SENTENCE
    newlines = gap.count("\n") + gap.replace("\r\n", "").count("\r")
    if newlines >= 2:
        return PARAGRAPH
    if newlines == 1:
        return LINE
    return CLAUSE if text[left - 1] in _CLAUSE_ENDS else WORD


def _rank_without_space(text: str, position: int) -> int:
    """Rank of a cut between two non-space characters (only CJK text has good ones)."""
    before, after = text[position - 1], text[position]
    if before in _CJK_SENTENCE_ENDS or (
        before in _CLOSERS and _ends_sentence(text, position, needs_space=True)
    ):
        return SENTENCE
    if before in _CLAUSE_ENDS and _is_cjk(before):
        return CLAUSE
    return WORD if _is_cjk(before) or _is_cjk(after) else INSIDE_WORD


def _ends_sentence(text: str, end: int, *, needs_space: bool) -> bool:
    """Whether text[:end] ends with a sentence terminator, perhaps followed by closing quotes."""
    index = end - 1
    while index >= 0 and end - index < 4 and text[index] in _CLOSERS:
        index -= 1
    if index < 0:
        return False
    char = text[index]
    if char in _CJK_SENTENCE_ENDS:
        return True
    if needs_space or char not in _SENTENCE_ENDS:
        return False
    return not (char == "." and _is_abbreviation(text, index))


def _is_abbreviation(text: str, period: int) -> bool:
    """Whether the word before this period is a title, initial or common abbreviation."""
    start = period
    while start > 0 and period - start < 8 and _is_word_char(text[start - 1]):
        start -= 1
    word = text[start:period].casefold()
    return word in _ABBREVIATIONS or (len(word) == 1 and text[start].isupper())


def _is_word_char(char: str) -> bool:
    return char.isalpha() or char == "."


def _is_cjk(char: str) -> bool:
    code = ord(char)
    return (
        0x3000 <= code <= 0x9FFF  # CJK punctuation, kana, unified ideographs
        or 0xAC00 <= code <= 0xD7AF  # Hangul syllables
        or 0xF900 <= code <= 0xFAFF  # compatibility ideographs
        or 0xFF00 <= code <= 0xFFEF  # full-width forms
    )
