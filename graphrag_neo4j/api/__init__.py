"""The HTTP API (with OpenAI-compatible chat) and the MCP server over a `GraphRAG` engine."""
