"""Global search: community reports mapped to points and reduced; lazy reports; level reading."""
