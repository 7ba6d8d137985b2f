"""Writing the graph: mentions, descriptions, summaries, deletion and unmerging."""
