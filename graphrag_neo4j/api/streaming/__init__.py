"""Streaming answers over HTTP: query tokens bridged to an async iterator, sent as server-sent
events."""
