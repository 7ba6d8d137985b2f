"""Query methods behind one protocol and one registry: local, global, hops, naive."""
