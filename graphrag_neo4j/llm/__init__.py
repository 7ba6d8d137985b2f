"""Chat models and embedders: providers, offline models, the one cached call path, usage."""
