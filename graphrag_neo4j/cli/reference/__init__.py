"""Files rendered from the code: the settings file of `init`, the settings and CLI references."""
