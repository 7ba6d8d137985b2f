"""Token counts and context windows: what a prompt costs, and cutting it to the model's window."""
