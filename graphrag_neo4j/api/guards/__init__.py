"""Guards around the API: body size, time and requests in flight, connection deadlines, the
API key and the bind rule, and where a request comes from."""
