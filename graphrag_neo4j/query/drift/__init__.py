"""DRIFT search: a primer over community reports, local follow-ups, one reduce."""
