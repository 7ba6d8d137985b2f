"""The stages of an index run after extraction, one module each, in one ordered list."""
