"""A method's first k documents from its passage ranking, when several passages share one."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

# Each round asks for twice the passages of the one before; four rounds reach 8k passages,
# enough for pages split into a few passages each without reading a whole long document.
GROWTH = 2
ROUNDS = 4

DocumentsOfTop = Callable[[int], Awaitable[list[str]]]


async def first_documents(documents_of_top: DocumentsOfTop, k: int) -> list[str]:
    """The first k distinct documents of a ranking. `documents_of_top(n)` gives the document
    of each of the ranking's n best passages (fewer when it holds fewer); where passages share
    documents, it is asked again for more passages, until k documents or the ranking's end."""
    asked = max(k, 1)
    ranked = await documents_of_top(asked)
    for _ in range(ROUNDS - 1):
        if len(set(ranked)) >= k or len(ranked) < asked:
            break
        asked *= GROWTH
        ranked = await documents_of_top(asked)
    return list(dict.fromkeys(ranked))[:k]
