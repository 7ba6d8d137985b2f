"""The offline models: llama.cpp chat, MiniLM embeddings, exact tokens, the joined download."""
