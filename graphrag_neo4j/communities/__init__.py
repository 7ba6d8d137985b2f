"""Communities: hierarchical Leiden over the entity graph and their reports."""
