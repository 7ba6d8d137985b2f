"""Documents over HTTP: the routes, background jobs and uploaded files."""
