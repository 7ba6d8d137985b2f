"""The plumbing every room shares: error types, shipped resources, progress bars, the sync loop."""
