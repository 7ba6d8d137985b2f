"""What indexing would cost (the estimate) and the budget checks before each batch."""
