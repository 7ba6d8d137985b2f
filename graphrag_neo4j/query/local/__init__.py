"""Local search: the entities nearest the question, what surrounds them, as facts and tables."""
