"""The one call path of chat models and embedders: requests, limits, errors, streaming, usage."""
