"""The MCP server and the read-only graph look-ups its tools use."""
