"""Fast extraction: spaCy parsing, terms and pruning, no LLM."""
