"""Indexing's map work on a Ray cluster (`index --ray`): tasks on the workers, one writer here."""
