"""Options several commands share: --workspace, --set, --ray and the spending limits."""
