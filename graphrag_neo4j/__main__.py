"""Lets `python -m graphrag_neo4j` run the CLI."""

from graphrag_neo4j.cli.app import main

main()
