"""Entity resolution: group mentions, let the LLM decide near-duplicates, undo merges."""
