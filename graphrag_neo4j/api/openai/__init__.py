"""The OpenAI-compatible routes and the chat clients' chores they answer."""
